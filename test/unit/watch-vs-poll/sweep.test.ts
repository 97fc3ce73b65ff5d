/**
 * Notebook 01's harness (src/workbook/watch-vs-poll): the latency arithmetic on made-up logs, and the writer and
 * one sweep point against the embedded API server, judged on counts and bytes (never on speed).
 */
import { CoreV1Api, type V1ConfigMap } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { SharedIndexInformer } from "../../../src/cache/shared-index-informer.js";
import { ListWatch } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import {
  along,
  ChangeWriter,
  type Cost,
  costTable,
  growth,
  knownLatencies,
  latencies,
  measureCost,
  type Notice,
  objName,
  percentile,
  type Size,
  type SweepObserver,
  type SweepWatcher,
  versionsSeen,
} from "../../../src/workbook/index.js";

describe("latency arithmetic", () => {
  const log = [
    { name: "a", seq: 0, sentAt: 100 },
    { name: "a", seq: 1, sentAt: 110 },
    { name: "b", seq: 2, sentAt: 120 },
  ];

  it("a write counts as noticed at the first notice of that object at its seq or later", () => {
    // A poller that LISTed once after both writes to a: it saw seq 1 only, and never b.
    const noticed: Notice[] = [{ name: "a", seq: 1, at: 150 }];
    expect(latencies(log, noticed)).toEqual([50, 40, undefined]);
    expect(knownLatencies(latencies(log, noticed))).toEqual([50, 40]);
    expect(versionsSeen(log, noticed)).toBe(1);
  });

  it("percentile is nearest-rank and NaN on nothing", () => {
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 1)).toBe(5);
    expect(percentile([5, 1, 3, 2, 4], 0)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it("along picks one axis from the base and growth is last over first", () => {
    const base: Size = { controllers: 4, objects: 100, perSecond: 20 };
    const cost = (size: Size, pollBytes: number): Cost => ({
      size,
      pollBytes,
      watchBytes: 0,
      pollRequests: 0,
      watchRequests: 0,
      writes: 0,
      watchBytesTotal: 0,
      watchBytesPerWrite: 0,
      watchListBytes: 0,
      pollP50: 0,
      watchP50: 0,
    });
    const results = [
      cost({ ...base, objects: 1000 }, 900),
      cost({ ...base, controllers: 16 }, 1),
      cost(base, 90),
      cost({ ...base, objects: 10 }, 9),
    ];
    expect(along(results, base, "objects").map((r) => r.size.objects)).toEqual([10, 100, 1000]);
    expect(growth(along(results, base, "objects"), "pollBytes")).toBe(100);
    expect(along(results, base, "controllers").map((r) => r.size.controllers)).toEqual([4, 16]);
    const table = costTable(results).split("\n");
    expect(table[0]?.split("|").length).toBe(13); // 11 columns between 12 pipes
    expect(table.length).toBe(2 + results.length + 1);
  });
});

describe("ChangeWriter and measureCost on the embedded API server", () => {
  let cluster: Cluster;
  let core: CoreV1Api;
  beforeAll(async () => {
    cluster = await startCluster({
      backend: "embedded",
      embedded: { controllers: { garbageCollector: false, namespace: false } },
    });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("grows to a count once, and stamps every write with a growing seq, round-robin over the hot objects", async () => {
    const namespace = "writer";
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    const writer = new ChangeWriter(core);
    await writer.growTo(namespace, 7);
    await writer.growTo(namespace, 7);
    expect((await writer.ours(namespace)).map((cm) => cm.metadata?.name)).toEqual(
      Array.from({ length: 7 }, (_, i) => objName(i)),
    );
    const first = await writer.send(namespace, 5, 1000, 3);
    const second = await writer.send(namespace, 2, 1000, 3);
    expect([...first, ...second].map((w) => w.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(first.map((w) => w.name)).toEqual([0, 1, 2, 0, 1].map(objName));
    const seqs = Object.fromEntries(
      (await writer.ours(namespace)).map((cm) => [cm.metadata?.name, cm.data?.seq]),
    );
    // obj-0000 was written last by seq 5, obj-0001 by seq 6, obj-0002 by seq 2; the cold ones never.
    expect(seqs).toMatchObject({
      [objName(0)]: "5",
      [objName(1)]: "6",
      [objName(2)]: "2",
      [objName(3)]: "-1",
    });
  });

  it("one sweep point: every watcher receives every write once; the LISTs weigh what the objects weigh", async () => {
    const namespace = "sweep";
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    const writer = new ChangeWriter(core);
    const metrics = cluster.instruments!.metrics;

    /** A watcher built from the package's informer: one LIST, one WATCH, every event noticed. */
    const newWatcher = (): SweepWatcher => {
      const noticed: Notice[] = [];
      const informer = new SharedIndexInformer<MetaObject>(
        new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace }),
      );
      const note = (obj: unknown) => {
        const cm = obj as V1ConfigMap;
        noticed.push({
          name: cm.metadata?.name ?? "",
          seq: Number(cm.data?.seq ?? -1),
          at: performance.now(),
        });
      };
      informer.addEventHandler({ onAdd: note, onUpdate: (_old, obj) => note(obj), onDelete: () => {} });
      return {
        noticed,
        watches: 1,
        start: async () => {
          informer.start();
          while (!informer.hasSynced()) await new Promise((r) => setTimeout(r, 10));
        },
        stop: () => informer.stop(),
      };
    };
    /** A poller: LISTs every 100 ms. */
    const newPoller = (): SweepObserver => {
      const noticed: Notice[] = [];
      let timer: ReturnType<typeof setInterval> | undefined;
      return {
        noticed,
        start: () => {
          timer = setInterval(() => void core.listNamespacedConfigMap({ namespace }).catch(() => {}), 100);
        },
        stop: () => clearInterval(timer),
      };
    };
    const options = { metrics, writer, namespace, newPoller, newWatcher, windowMs: 300 };
    const small = await measureCost({ controllers: 2, objects: 5, perSecond: 20 }, options);
    const big = await measureCost({ controllers: 2, objects: 50, perSecond: 20 }, options);
    for (const cost of [small, big]) {
      expect(cost.writes).toBe(6);
      expect(cost.watchRequests).toBe(2);
      // Two watchers, each sent every write once: the bytes of 12 events, whatever the object count.
      expect(cost.watchBytesTotal).toBeGreaterThan(0);
    }
    expect(big.watchBytesPerWrite / small.watchBytesPerWrite).toBeLessThan(1.5);
    // The watchers' one-time LISTs grow with the objects listed (10 times as many).
    expect(big.watchListBytes / small.watchListBytes).toBeGreaterThan(5);
  });
});
