/**
 * What the embedded API server counted: a grader's view of kube-apiserver's `apiserver_request_total{verb,
 * resource}`, for requirements about the requests a controller sends (no GET before an apply, no write while
 * idle). Other backends have no such counters: the helpers answer `undefined` there, and a grader then checks
 * the outcome only.
 */
import type { Cluster } from "../../../control-plane/cluster/index.js";

/**
 * Requests for `resource` (`configmaps`; a subresource as `staticsites/status`) the server answered so far, by
 * verb, or `undefined` on a backend without request counts.
 */
export function requestsByVerb(cluster: Cluster, resource: string): Map<string, number> | undefined {
  const m = cluster.instruments?.metrics.snapshot();
  if (!m) return undefined;
  const byVerb = new Map<string, number>();
  for (const r of m.requests.filter((r) => r.resource === resource))
    byVerb.set(r.verb, (byVerb.get(r.verb) ?? 0) + r.count);
  return byVerb;
}

/** The sum of `verbs` over `resources` (writes: `["create", "update", "patch", "delete"]`), or `undefined`. */
export function countRequests(
  cluster: Cluster,
  resources: readonly string[],
  verbs: readonly string[],
): number | undefined {
  let total = 0;
  for (const resource of resources) {
    const byVerb = requestsByVerb(cluster, resource);
    if (!byVerb) return undefined;
    for (const verb of verbs) total += byVerb.get(verb) ?? 0;
  }
  return total;
}
