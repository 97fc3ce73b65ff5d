import type { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { SharedInformerFactory } from "../../../src/cache/factory.js";
import { SharedIndexInformer } from "../../../src/cache/shared-index-informer.js";
import { DeletedFinalStateUnknown } from "../../../src/cache/tombstone.js";
import { ListWatch } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";
import type { ApiBackend } from "../../../src/control-plane/apiserver/types.js";
import type { Cluster } from "../../../src/control-plane/cluster/index.js";
import {
  cachedConfigMaps,
  embedded,
  eventually,
  lines,
  seedConfigMaps,
  serverConfigMaps,
} from "./helpers.js";

let cluster: Cluster;
let core: CoreV1Api;
let backend: ApiBackend;
let nsCounter = 0;

beforeAll(async () => {
  ({ cluster, core, backend } = await embedded());
});
afterAll(async () => {
  await cluster?.stop();
});

async function namespace(): Promise<string> {
  const name = `inf-${++nsCounter}`;
  await core.createNamespace({ body: { metadata: { name } } });
  return name;
}

function informerIn(ns: string, errors: unknown[] = []) {
  return new SharedIndexInformer<MetaObject>(
    new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace: ns }),
    {
      onError: (e) => errors.push(e),
      reflector: { backoff: { initialMs: 50, capMs: 200 } },
    },
  );
}

describe("SharedIndexInformer against the embedded API server", () => {
  it("syncs, then delivers add/update(old,new)/delete in order, and the cache matches the server", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: "pre" }, data: { v: "0" } },
    });
    const informer = informerIn(ns);
    const events: string[] = [];
    informer.addEventHandler({
      onAdd: (o, initial) => void events.push(`add ${o.metadata?.name}${initial ? " initial" : ""}`),
      onUpdate: (old, neu) =>
        void events.push(
          `update ${(old as { data?: { v?: string } }).data?.v}->${(neu as { data?: { v?: string } }).data?.v}`,
        ),
      onDelete: (o) => void events.push(`delete ${(o as MetaObject).metadata?.name}`),
    });
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      await core.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: "a" }, data: { v: "1" } },
      });
      await core.replaceNamespacedConfigMap({
        namespace: ns,
        name: "a",
        body: { metadata: { name: "a" }, data: { v: "2" } },
      });
      await core.deleteNamespacedConfigMap({ namespace: ns, name: "pre" });
      expect(await eventually(() => events.length === 4)).toBe(true);
      expect(events).toEqual(["add pre initial", "add a", "update 1->2", "delete pre"]);
      expect(lines(cachedConfigMaps(informer))).toEqual(lines(await serverConfigMaps(core, ns)));
      expect(cluster.instruments!.metrics.snapshot().openWatches).toBeGreaterThan(0);
    } finally {
      await informer.stop();
    }
    expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === 0)).toBe(true);
  });

  it("gets a 1,200-object initial list in one page: RV=0 is served whole, limit ignored (as the watch cache does)", async () => {
    const ns = await namespace();
    seedConfigMaps(backend, ns, 1200);
    const informer = informerIn(ns);
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      expect(informer.getIndexer().size).toBe(1200);
      expect(informer.reflectorStats()).toMatchObject({ lists: 1, listPages: 1 });
    } finally {
      await informer.stop();
    }
  });

  it("resumes after the server drops its watches, without relisting", async () => {
    const ns = await namespace();
    const informer = informerIn(ns);
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "a" } } });
      expect(await eventually(() => informer.getIndexer().size === 1)).toBe(true);
      cluster.instruments!.faults.dropWatches();
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "b" } } });
      expect(await eventually(() => informer.getIndexer().size === 2)).toBe(true);
      expect(informer.reflectorStats()!.lists).toBe(1);
      expect(informer.reflectorStats()!.watches).toBeGreaterThanOrEqual(2);
    } finally {
      await informer.stop();
    }
  });

  it("hands out a tombstone for an object deleted while the watch was down", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: "victim" }, data: { v: "last" } },
    });
    const informer = new SharedIndexInformer<MetaObject>(
      new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace: ns }),
      { onError: () => {}, reflector: { backoff: { initialMs: 400, capMs: 400, jitter: 0 } } },
    );
    const deletes: unknown[] = [];
    informer.addEventHandler({ onDelete: (o) => void deletes.push(o) });
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      cluster.instruments!.faults.failNext("watch", 1, 500, "configmaps");
      cluster.instruments!.faults.dropWatches();
      expect(await eventually(() => informer.reflectorStats()!.errors >= 1)).toBe(true);
      await core.deleteNamespacedConfigMap({ namespace: ns, name: "victim" });
      expect(await eventually(() => deletes.length === 1)).toBe(true);
      const tomb = deletes[0] as DeletedFinalStateUnknown<MetaObject>;
      expect(tomb).toBeInstanceOf(DeletedFinalStateUnknown);
      expect(tomb.key).toBe(`${ns}/victim`);
      expect((tomb.obj as { data?: { v?: string } }).data?.v).toBe("last");
      expect(informer.reflectorStats()!.lists).toBe(2);
    } finally {
      await informer.stop();
    }
  });

  it("relists after compacted history (410) and converges", async () => {
    const ns = await namespace();
    const informer = informerIn(ns);
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      cluster.instruments!.faults.failNext("watch", 1, 500, "configmaps");
      cluster.instruments!.faults.dropWatches();
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "x" } } });
      cluster.instruments!.faults.compactHistory();
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "y" } } });
      const converged = await eventually(
        async () =>
          lines(cachedConfigMaps(informer)).join() === lines(await serverConfigMaps(core, ns)).join(),
      );
      expect(converged).toBe(true);
      expect(informer.reflectorStats()!.lists).toBeGreaterThanOrEqual(2);
    } finally {
      await informer.stop();
    }
  });

  it("the watchdog replaces a silent watch over real HTTP, without relisting or leaking streams", async () => {
    const ns = await namespace();
    const before = cluster.instruments!.metrics.snapshot().openWatches;
    const informer = new SharedIndexInformer<MetaObject>(
      new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace: ns }),
      { onError: () => {}, reflector: { watchIdleTimeoutMs: 150 } },
    );
    informer.start();
    try {
      expect(await informer.waitForCacheSync()).toBe(true);
      expect(await eventually(() => informer.reflectorStats()!.watchdogRestarts >= 3)).toBe(true);
      expect(informer.reflectorStats()!.lists).toBe(1);
      expect(cluster.instruments!.metrics.snapshot().openWatches).toBeLessThanOrEqual(before + 1);
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "after-stalls" } } });
      expect(await eventually(() => informer.getIndexer().size === 1)).toBe(true);
    } finally {
      await informer.stop();
    }
    expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === before)).toBe(true);
  });

  it("a factory shares one informer (one watch) between two consumers", async () => {
    const ns = await namespace();
    const factory = new SharedInformerFactory(cluster.kubeConfig, { namespace: ns });
    const before = cluster.instruments!.metrics.snapshot().openWatches;
    const a = factory.informerFor(BuiltinResources.configMaps);
    const b = factory.informerFor(BuiltinResources.configMaps);
    expect(a).toBe(b);
    factory.start();
    try {
      expect(await factory.waitForCacheSync()).toBe(true);
      expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === before + 1)).toBe(
        true,
      );
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "shared" } } });
      const lister = factory.listerFor(BuiltinResources.configMaps);
      expect(await eventually(() => lister.namespace(ns).get("shared") !== undefined)).toBe(true);
    } finally {
      await factory.shutdown();
    }
  });
});
