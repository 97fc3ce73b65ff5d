/**
 * Aggregated discovery (`apidiscovery.k8s.io/v2`, KEP-3352): `/api` and `/apis` answer every group, version and
 * resource in one `APIGroupDiscoveryList` when the client asks for it in `Accept`
 * (`application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`), so client-go and kubectl discover the
 * whole API in two requests instead of one per group version. Mirrors kube-apiserver 1.34: the response's
 * Content-Type echoes the asked media type, `responseKind` leaves group and version empty for a built-in
 * resource's own group version (a custom resource's names them, as apiextensions-apiserver does), every version is `Current` (nothing is aggregated from other servers here), and v2beta1 is no
 * longer served (a client that asks only for it gets the legacy documents, as it would from kube-apiserver).
 */
import type { ResourceType } from "../types.js";

/** The media type parameters of the aggregated discovery list this server serves. */
export const AGGREGATED_DISCOVERY_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/** One served group version, in the order discovery lists them (a group's preferred version first). */
export interface DiscoveryGroupVersion {
  group: string;
  version: string;
  types: ResourceType[];
}

/** Verbs of the subresources the embedded server serves. */
const SUBRESOURCE_VERBS: Readonly<Record<string, string[]>> = {
  finalize: ["update"],
  status: ["get", "patch", "update"],
};

/**
 * Whether an `Accept` header asks for aggregated discovery v2 (in any position: a client lists it before its
 * legacy fallback). Parameters may come in any order and with spaces, as Go's `mime.ParseMediaType` reads them.
 */
export function acceptsAggregatedDiscovery(accept: string): boolean {
  return accept.split(",").some((entry) => {
    const [type, ...params] = entry.split(";").map((p) => p.trim());
    if (type !== "application/json") return false;
    const values = new Map(
      params.map((p) => {
        const eq = p.indexOf("=");
        return [p.slice(0, eq).trim(), p.slice(eq + 1).trim()] as const;
      }),
    );
    return (
      values.get("g") === "apidiscovery.k8s.io" &&
      values.get("v") === "v2" &&
      values.get("as") === "APIGroupDiscoveryList"
    );
  });
}

/** One resource of a version (`APIResourceDiscovery`), with its subresources. */
function resourceDiscovery(t: ResourceType): Record<string, unknown> {
  const kind = t.custom
    ? { group: t.group, version: t.version, kind: t.kind }
    : { group: "", version: "", kind: t.kind };
  const out: Record<string, unknown> = {
    resource: t.resource,
    responseKind: kind,
    scope: t.namespaced ? "Namespaced" : "Cluster",
    singularResource: t.singular,
    verbs: [...t.verbs],
  };
  if (t.shortNames.length > 0) out.shortNames = [...t.shortNames];
  if (t.categories && t.categories.length > 0) out.categories = [...t.categories];
  const subs = [...t.subresources].sort().map((sub) => ({
    subresource: sub,
    responseKind: kind,
    verbs: SUBRESOURCE_VERBS[sub] ?? ["get"],
  }));
  if (subs.length > 0) out.subresources = subs;
  return out;
}

/**
 * The `APIGroupDiscoveryList` of `/api` (`legacy`: the core group, whose item has no name) or `/apis` (every
 * named group, in the order of the legacy `APIGroupList`).
 */
export function aggregatedDiscovery(gvs: readonly DiscoveryGroupVersion[], legacy: boolean): string {
  const groups: string[] = [];
  for (const gv of gvs) if ((gv.group === "") === legacy && !groups.includes(gv.group)) groups.push(gv.group);
  const items = groups.map((name) => ({
    metadata: legacy ? {} : { name },
    versions: gvs
      .filter((gv) => gv.group === name)
      .map((gv) => ({
        version: gv.version,
        resources: [...gv.types].sort((a, b) => a.resource.localeCompare(b.resource)).map(resourceDiscovery),
        freshness: "Current",
      })),
  }));
  return JSON.stringify({
    kind: "APIGroupDiscoveryList",
    apiVersion: "apidiscovery.k8s.io/v2",
    metadata: {},
    items,
  });
}
