/**
 * The controller pieces wired the way sample-controller wires them, against the embedded API server:
 * SharedIndexInformer -> enqueueHandler -> Controller (hasSynced gate) -> reconcile reading the informer's
 * cache -> EventRecorder writing core/v1 Events through client-node. Real clock, real HTTP.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { SharedIndexInformer } from "../../../src/cache/shared-index-informer.js";
import { ListWatch } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { Controller, EventRecorder, enqueueHandler } from "../../../src/controller/index.js";

let cluster: Cluster;
let core: CoreV1Api;

beforeAll(async () => {
  cluster = await startCluster({ backend: "embedded" });
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  await cluster?.stop();
});

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("Controller + informer + EventRecorder on the embedded cluster", () => {
  it("reconciles each ConfigMap from the cache and aggregates identical Events into a count", async () => {
    const namespace = "ctrl-e2e";
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "pre" }, data: { v: "0" } },
    });

    const informer = new SharedIndexInformer<MetaObject>(
      new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace }),
    );
    const recorder = new EventRecorder({ api: core, component: "e2e-controller" });
    const seen: string[] = [];
    const errors: unknown[] = [];
    const controller = new Controller({
      name: "e2e",
      workers: 2,
      hasSynced: [() => informer.hasSynced()],
      onError: (e) => errors.push(e),
      reconcile: async (key) => {
        const cm = informer.getIndexer().getByKey(key) as
          | (MetaObject & { kind?: string; apiVersion?: string; data?: Record<string, string> })
          | undefined;
        if (!cm) return; // deleted: nothing to do
        seen.push(`${key}=${cm.data?.v}`);
        await recorder.event(
          { ...cm, kind: "ConfigMap", apiVersion: "v1" },
          "Normal",
          "Seen",
          "configmap seen",
        );
      },
    });
    informer.addEventHandler(enqueueHandler(controller.queue));
    informer.start();
    controller.start();
    try {
      expect(await eventually(() => seen.includes(`${namespace}/pre=0`))).toBe(true);
      // Updates one at a time, each waited for: three reconciles of the same key, one Event object, count 3.
      for (const v of ["1", "2"]) {
        await core.replaceNamespacedConfigMap({
          namespace,
          name: "pre",
          body: { metadata: { name: "pre" }, data: { v } },
        });
        expect(await eventually(() => seen.includes(`${namespace}/pre=${v}`))).toBe(true);
      }
      const events = async () =>
        (await core.listNamespacedEvent({ namespace })).items.filter((e) => e.involvedObject.name === "pre");
      expect(await eventually(async () => (await events())[0]?.count === 3)).toBe(true);
      const [event] = await events();
      expect(await events()).toHaveLength(1);
      expect(event).toMatchObject({
        reason: "Seen",
        type: "Normal",
        involvedObject: { kind: "ConfigMap", namespace, name: "pre" },
        source: { component: "e2e-controller" },
      });
      expect(errors).toEqual([]);
    } finally {
      await controller.stop();
      await informer.stop();
    }
    expect(controller.queue.shuttingDown()).toBe(true);
    expect(controller.stats.active).toBe(0);
  });
});
