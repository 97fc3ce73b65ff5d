/**
 * Cache vs live read, the second idea as numbers: a controller reconciles every key of M ConfigMaps once,
 * reading each object either from its informer's cache (the lister: memory) or with a GET per reconcile (the
 * network). Same controller, same workers, same server (the embedded one, in its own process). Figures:
 * reconciles per second for each, and the load each puts on the server in requests per second while it runs.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { SharedIndexInformer } from "../../../cache/shared-index-informer.js";
import { ListWatch } from "../../../client/list-watch.js";
import { BuiltinResources } from "../../../client/resource-descriptor.js";
import { Controller } from "../../../controller/controller.js";
import { xyChart } from "../../../workbook/viz/xychart.js";
import { startEmbeddedHost } from "../embedded-host.js";
import { countTo, untilCount } from "../measure.js";
import { type BenchContext, type Benchmark, type BenchResult, peerRate } from "../types.js";
import { kubeConfigFrom } from "./informers.js";

const WORKERS = 4;

async function run(ctx: BenchContext): Promise<BenchResult> {
  const m = ctx.tiny ? 100 : 2000;
  const ns = "cache-vs-live";
  const host = await startEmbeddedHost();
  try {
    await host.fill(ns, m);
    const kc = kubeConfigFrom(host.kubeconfigPath);
    const listWatch = new ListWatch(kc, BuiltinResources.configMaps, { namespace: ns });
    const informer = new SharedIndexInformer(listWatch);
    informer.start();
    const core = kc.makeApiClient(CoreV1Api);
    try {
      await untilCount(() => (informer.hasSynced() ? informer.getIndexer().size : 0), m);
      const keys = informer.getIndexer().listKeys();
      const measure = async (read: (key: string) => Promise<unknown> | unknown) => {
        const reconciles = countTo(keys.length);
        const controller = new Controller({
          name: "bench-read",
          workers: WORKERS,
          reconcile: async (key) => {
            const obj = await read(key);
            if (obj === undefined) throw new Error(`${key} not found`);
            reconciles.tick();
          },
        });
        const start = performance.now();
        for (const k of keys) controller.enqueue(k);
        controller.start();
        try {
          await reconciles.reached;
        } finally {
          reconciles.stop();
        }
        const seconds = (performance.now() - start) / 1000;
        await controller.stop();
        return { perSecond: reconciles.count() / seconds, seconds };
      };
      let gets = 0;
      const lister = await measure((key) => informer.getIndexer().getByKey(key));
      const live = await measure(async (key) => {
        gets++;
        const [namespace, name] = key.split("/") as [string, string];
        return core.readNamespacedConfigMap({ namespace, name });
      });
      const liveRequests = gets / live.seconds;
      return {
        figures: [
          {
            name: `reconciles/s reading the lister (${m} keys, ${WORKERS} workers)`,
            value: lister.perSecond,
            unit: "reconciles/s",
            peers: [peerRate("GET per reconcile", lister.perSecond, live.perSecond)],
            notes: "the cache costs no request; the informer's one watch is all the server sees",
          },
          {
            name: "server requests/s caused by reconciles: GET per reconcile (lister: 0)",
            value: liveRequests,
            unit: "requests/s",
            notes: `lister: 0 requests for ${m} reconciles; live: ${gets} GETs in ${live.seconds.toFixed(2)} s`,
          },
        ],
        charts: [
          xyChart({
            title: "Reconciles per second; bars: lister read, GET per reconcile",
            x: ["lister", "GET"],
            yLabel: "reconciles/s",
            series: [{ kind: "bar", values: [lister.perSecond, live.perSecond] }],
          }),
        ],
        missing: [],
      };
    } finally {
      await informer.stop();
      await listWatch.close();
    }
  } finally {
    await host.stop();
  }
}

/** The cache-vs-live-read family. */
export const benchmark: Benchmark = {
  name: "cache-vs-live",
  title:
    "reconciles per second reading the informer's cache against a GET per reconcile, and the server load",
  run,
};
