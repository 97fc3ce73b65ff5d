import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  type V1ConfigMap,
  type V1OwnerReference,
} from "@kubernetes/client-node";
import type { Cluster } from "../../../src/control-plane/cluster/index.js";

/** Polls `check` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** ConfigMap helpers for one namespace. */
export function configMaps(cluster: Cluster, namespace: string) {
  const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  return {
    core,
    async create(name: string, owners: V1OwnerReference[] = [], finalizers?: string[]): Promise<V1ConfigMap> {
      return core.createNamespacedConfigMap({
        namespace,
        body: { metadata: { name, ownerReferences: owners, finalizers }, data: { k: name } },
      });
    },
    async get(name: string): Promise<V1ConfigMap | undefined> {
      try {
        return await core.readNamespacedConfigMap({ name, namespace });
      } catch (err) {
        if (err instanceof ApiException && err.code === 404) return undefined;
        throw err;
      }
    },
    async exists(name: string): Promise<boolean> {
      return (await this.get(name)) !== undefined;
    },
    delete(name: string, propagationPolicy?: "Background" | "Foreground" | "Orphan") {
      return core.deleteNamespacedConfigMap({ name, namespace, propagationPolicy });
    },
    async dropFinalizers(name: string): Promise<void> {
      const cm = await core.readNamespacedConfigMap({ name, namespace });
      await core.replaceNamespacedConfigMap({
        name,
        namespace,
        body: { ...cm, metadata: { ...cm.metadata, finalizers: [] } },
      });
    },
  };
}

/** An ownerReference to a ConfigMap. */
export function refTo(owner: V1ConfigMap, blockOwnerDeletion?: boolean): V1OwnerReference {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: owner.metadata!.name!,
    uid: owner.metadata!.uid!,
    ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
  };
}

/**
 * Creates the namespaced CRD `<plural>.example.com` with one served and stored version v1 (any fields kept);
 * returns the coordinates CustomObjectsApi takes for its objects in namespace `default`.
 */
export async function createExampleCrd(cluster: Cluster, plural: string, kind: string) {
  await cluster.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
    body: {
      metadata: { name: `${plural}.example.com` },
      spec: {
        group: "example.com",
        scope: "Namespaced",
        names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", x_kubernetes_preserve_unknown_fields: true } },
          },
        ],
      },
    },
  });
  return { group: "example.com", version: "v1", namespace: "default", plural };
}
