import { CoreV1Api } from "@kubernetes/client-node";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import type { SharedIndexInformer } from "../../../src/cache/shared-index-informer.js";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import type { ApiBackend } from "../../../src/control-plane/apiserver/types.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";

/** An embedded cluster, a CoreV1Api on it, and its backend (to seed many objects without HTTP). */
export async function embedded(): Promise<{
  cluster: Cluster;
  core: CoreV1Api;
  backend: ApiBackend;
}> {
  const backend = createBackend();
  // No control-plane controllers: their own watches would blur the open-watch counts these tests assert.
  const cluster = await startCluster({
    backend: "embedded",
    embedded: { backend, controllers: { garbageCollector: false, namespace: false } },
  });
  if (!cluster.instruments) throw new Error("the embedded backend should have instruments");
  const stop = cluster.stop.bind(cluster);
  const owned: Cluster = {
    ...cluster,
    stop: async () => {
      await stop();
      backend.stop?.();
    },
  };
  return { cluster: owned, core: cluster.kubeConfig.makeApiClient(CoreV1Api), backend };
}

/** Creates `count` ConfigMaps `prefix-0..` in `namespace` straight through the backend (fast seeding). */
export function seedConfigMaps(backend: ApiBackend, namespace: string, count: number, prefix = "cm"): void {
  const rt = backend.findResource("", "v1", "configmaps");
  if (!rt) throw new Error("configmaps are not served");
  for (let i = 0; i < count; i++) {
    backend.create(rt, namespace, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `${prefix}-${i}` },
      data: { i: String(i) },
    });
  }
}

/** Polls `check` every `everyMs` (real time) until it returns true; false after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, everyMs = 10) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `name -> resourceVersion` of the ConfigMaps in a namespace, read from the server. */
export async function serverConfigMaps(core: CoreV1Api, namespace: string): Promise<Map<string, string>> {
  const list = await core.listNamespacedConfigMap({ namespace });
  return new Map(list.items.map((cm) => [cm.metadata!.name!, cm.metadata!.resourceVersion!]));
}

/** `name -> resourceVersion` of everything in an informer's cache. */
export function cachedConfigMaps(informer: SharedIndexInformer<MetaObject>): Map<string, string> {
  return new Map(
    informer
      .getIndexer()
      .list()
      .map((o) => [o.metadata!.name!, o.metadata!.resourceVersion!]),
  );
}

/** Sorted `name@rv` lines, for readable equality assertions. */
export function lines(state: Map<string, string>): string[] {
  return [...state].map(([k, v]) => `${k}@${v}`).sort();
}
