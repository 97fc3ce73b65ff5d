/**
 * API discovery for the control-plane controllers: which resources the server serves, in which scope, with
 * which verbs. Mirrors client-go's discovery client (`ServerPreferredResources`) plus the small RESTMapper the
 * garbage collector and namespace controller need (group + kind -> resource, namespaced?). All requests go
 * through @kubernetes/client-node's request pipeline (auth, TLS, `ApiException` errors).
 */

import type { Agent } from "node:https";
import {
  HttpMethod,
  type KubeConfig,
  KubernetesObjectApi,
  type V1APIGroupList,
  type V1APIResourceList,
} from "@kubernetes/client-node";
import { collectionConfiguration, keepAliveAgent } from "../../client/collection-client.js";
import { collectionPath, type ResourceDescriptor } from "../../client/resource-descriptor.js";
import { groupOfApiVersion } from "../../meta/owner-references.js";

/** One served resource: a descriptor plus the verbs discovery advertises for it. */
export interface DiscoveredResource extends ResourceDescriptor {
  readonly verbs: readonly string[];
}

/**
 * client-node's generic object client (`KubernetesObjectApi`: read, list, patch, delete of any kind) with one
 * more call, GET of a discovery document, and one keep-alive HTTPS agent for all its requests (client-node 1.4
 * would pay a TLS handshake per request, which dominates a garbage collector's many small calls).
 */
export class DynamicClient extends KubernetesObjectApi {
  private agent: Promise<Agent | undefined> | undefined;

  /** Builds the client for a KubeConfig; call {@link DynamicClient.close} when done. */
  static forConfig(kubeConfig: KubeConfig): DynamicClient {
    const agent = keepAliveAgent(kubeConfig);
    agent.catch(() => {}); // a TLS setup error surfaces on the first request instead
    const client = new DynamicClient(collectionConfiguration(kubeConfig, agent));
    client.agent = agent;
    return client;
  }

  /** Closes the pooled connections. Idempotent. */
  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    (await agent?.catch(() => undefined))?.destroy();
  }

  /**
   * DELETE of a whole collection (`deletecollection`) in `namespace`, with background propagation: what the
   * namespace controller uses when a resource supports it. Resolves when the server answered.
   */
  async deleteCollection(resource: ResourceDescriptor, namespace: string): Promise<void> {
    const ctx = this.configuration.baseServer.makeRequestContext(
      collectionPath(resource, namespace),
      HttpMethod.DELETE,
    );
    ctx.setHeaderParam("Accept", "application/json");
    ctx.setQueryParam("propagationPolicy", "Background");
    await this.requestPromise(ctx, "KubernetesObject");
  }

  /** GET `path`, deserialised as the client-node model `type` (e.g. `V1APIResourceList`). */
  getDiscovery<T>(path: string, type: string): Promise<T> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    ctx.setHeaderParam("Accept", "application/json");
    return this.requestPromise(ctx, type) as unknown as Promise<T>;
  }
}

function toResources(group: string, version: string, list: V1APIResourceList): DiscoveredResource[] {
  return (list.resources ?? [])
    .filter((r) => !r.name.includes("/")) // subresources (pods/status, namespaces/finalize)
    .map((r) => ({
      group,
      version,
      plural: r.name,
      kind: r.kind,
      namespaced: r.namespaced,
      verbs: r.verbs ?? [],
    }));
}

/**
 * Every resource of the preferred version of every group (core `v1` first). A group version that fails to
 * answer is skipped (like client-go's partial discovery failures), so one broken aggregated API cannot stop
 * the controllers.
 */
export async function discoverResources(client: DynamicClient): Promise<DiscoveredResource[]> {
  const out = toResources(
    "",
    "v1",
    await client.getDiscovery<V1APIResourceList>("/api/v1", "V1APIResourceList"),
  );
  const groups = await client.getDiscovery<V1APIGroupList>("/apis", "V1APIGroupList");
  const lists = await Promise.all(
    (groups.groups ?? []).map(async (g) => {
      const version = g.preferredVersion?.version ?? g.versions[0]?.version;
      if (!version) return [];
      try {
        const list = await client.getDiscovery<V1APIResourceList>(
          `/apis/${g.name}/${version}`,
          "V1APIResourceList",
        );
        return toResources(g.name, version, list);
      } catch {
        return [];
      }
    }),
  );
  for (const list of lists) out.push(...list);
  return out;
}

/** True if the resource supports every verb in `verbs`. */
export function supports(resource: DiscoveredResource, ...verbs: string[]): boolean {
  return verbs.every((v) => resource.verbs.includes(v));
}

/** Finds resources by group and kind (a RESTMapper's `RESTMapping`), ignoring the version. */
export class ResourceMapper {
  private readonly byGroupKind = new Map<string, DiscoveredResource>();

  constructor(readonly resources: readonly DiscoveredResource[]) {
    for (const r of resources) {
      const key = `${r.group}/${r.kind}`;
      if (!this.byGroupKind.has(key)) this.byGroupKind.set(key, r);
    }
  }

  /** The resource serving `kind` in the group of `apiVersion`, if discovery knows it. */
  find(apiVersion: string, kind: string): DiscoveredResource | undefined {
    return this.byGroupKind.get(`${groupOfApiVersion(apiVersion)}/${kind}`);
  }
}
