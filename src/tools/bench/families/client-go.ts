/**
 * client-go as the peer: the same server (the embedded one, in its own process), the same kubeconfig, the same
 * ConfigMaps, and three informers one after another: ours, client-node's makeInformer and client-go's
 * SharedIndexInformer (its default watch-list streaming, and a plain LIST with KUBE_FEATURE_WatchListClient=false).
 * Figures: initial sync at 1k, 10k and 50k objects; steady-state update throughput once synced; memory per cached
 * object (V8 heap for Node, Go's heap in use for client-go); and the workqueue's add/get/done cycles and dedup
 * against client-go's workqueue, measured like for like.
 */
import { xyChart } from "../../../workbook/viz/xychart.js";
import { type EmbeddedHost, startEmbeddedHost } from "../embedded-host.js";
import { median } from "../measure.js";
import { type ClientGoPeer, runClientGoPeer } from "../peers/client-go.js";
import {
  type BenchContext,
  type BenchFigure,
  type Benchmark,
  type BenchResult,
  judged,
  peerCost,
  peerRate,
} from "../types.js";
import {
  cachedBytesPerObject,
  kubeConfigFrom,
  type SyncedInformer,
  syncClientGo,
  syncClientNode,
  syncOnCollectedHeap,
  syncOurs,
} from "./informers.js";
import { bestOf, burstBeforeWorker, burstWhileProcessing, queueCycles } from "./workqueue-cycles.js";

type Impl = "ours" | "client-node" | "client-go watch-list" | "client-go LIST";

interface Sizes {
  objects: number[];
  runs: number;
  updates: number;
  /** Rounds of the update-throughput figure per implementation (median reported). */
  throughputRounds: number;
  memoryAt: number;
  cycles: number;
}

const FULL: Sizes = {
  objects: [1000, 10_000, 50_000],
  runs: 3,
  updates: 10_000,
  throughputRounds: 3,
  memoryAt: 10_000,
  cycles: 2_000_000,
};
const TINY: Sizes = {
  objects: [100, 300],
  runs: 1,
  updates: 200,
  throughputRounds: 1,
  memoryAt: 300,
  cycles: 20_000,
};

/** `runs` sync times, each on a collected heap. */
async function timed(runs: number, sync: () => Promise<SyncedInformer>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await syncOnCollectedHeap(sync));
  return times;
}

/** Sync times per implementation at every size; `missing` when the Go peer could not run. */
async function syncFigures(host: EmbeddedHost, sizes: Sizes, peer: ClientGoPeer | undefined) {
  const kc = kubeConfigFrom(host.kubeconfigPath);
  const table = new Map<Impl, number[]>();
  const notes: string[] = [];
  for (const n of sizes.objects) {
    const ns = `sync-${n}`;
    await host.fill(ns, n);
    await host.heapUsed(); // the fill's garbage is collected in the server before anyone is timed
    await (await syncOurs(kc, ns, n)).stop(); // warm-up: JIT, TLS session
    const ours = await timed(sizes.runs, () => syncOurs(kc, ns, n));
    const node = await timed(sizes.runs, () => syncClientNode(kc, ns, n));
    const row: Array<[Impl, number]> = [
      ["ours", median(ours)],
      ["client-node", median(node)],
    ];
    if (peer) {
      for (const watchList of [true, false]) {
        const r = await syncClientGo(peer, host.kubeconfigPath, ns, n, { runs: sizes.runs + 1, watchList });
        const impl: Impl = watchList ? "client-go watch-list" : "client-go LIST";
        row.push([impl, median(r.runsMs.slice(1))]);
        notes.push(`${n}: ${impl} requests ${JSON.stringify(r.requests)}, ${(r.bytes / 1e6).toFixed(2)} MB`);
      }
    }
    for (const [impl, ms] of row) table.set(impl, [...(table.get(impl) ?? []), ms]);
  }
  return { table, notes };
}

/**
 * Update events/s into a synced informer, per implementation: the median of `throughputRounds` rounds taken in
 * turn (ours, client-node, client-go, ours, ...), after one untimed round that warms the server's update and
 * watch path. The server writes the updates, so every round also measures the server: measured first and once,
 * ours paid for the server's JIT warm-up of its update path, and a single round on a shared machine measured
 * whoever the scheduler favoured at that moment.
 */
async function throughputFigures(host: EmbeddedHost, sizes: Sizes, peer: ClientGoPeer | undefined) {
  const kc = kubeConfigFrom(host.kubeconfigPath);
  const n = sizes.memoryAt;
  const ns = `sync-${n}`;
  const u = sizes.updates;
  const rate = async (sync: () => Promise<SyncedInformer>) => {
    const s = await sync();
    try {
      const arrived = s.updates(u);
      const { startMs } = await host.update(ns, u, n);
      return u / (((await arrived) - startMs) / 1000);
    } finally {
      await s.stop();
    }
  };
  const goRate = async (p: ClientGoPeer) => {
    let startMs = 0;
    const r = await syncClientGo(p, host.kubeconfigPath, ns, n, {
      runs: 1,
      watchList: true,
      updates: u,
      onReady: async () => {
        startMs = (await host.update(ns, u, n)).startMs;
      },
    });
    return u / (((r.lastUpdateMs ?? Number.NaN) - startMs) / 1000);
  };
  await rate(() => syncOurs(kc, ns, n)); // warm-up of the server's update path, not counted
  const ours: number[] = [];
  const node: number[] = [];
  const go: number[] = [];
  for (let round = 0; round < sizes.throughputRounds; round++) {
    ours.push(await rate(() => syncOurs(kc, ns, n)));
    node.push(await rate(() => syncClientNode(kc, ns, n)));
    if (peer) go.push(await goRate(peer));
  }
  return {
    ours: median(ours),
    node: median(node),
    go: peer ? median(go) : undefined,
    rounds: { ours, node, go },
  };
}

const fmtRates = (rates: number[]) => rates.map((r) => Math.round(r).toLocaleString("en-US")).join(" / ");

/** Heap per cached object: the informer stays up while the heap is read. */
async function memoryFigures(host: EmbeddedHost, sizes: Sizes, peer: ClientGoPeer | undefined) {
  const kc = kubeConfigFrom(host.kubeconfigPath);
  const n = sizes.memoryAt;
  const ns = `sync-${n}`;
  const perObject = (sync: () => Promise<SyncedInformer>) => cachedBytesPerObject(sync, n);
  const ours = await perObject(() => syncOurs(kc, ns, n));
  const node = await perObject(() => syncClientNode(kc, ns, n));
  const go = peer
    ? await syncClientGo(peer, host.kubeconfigPath, ns, n, { runs: 1, watchList: true })
    : undefined;
  return { ours, node, go };
}

async function workqueueFigures(sizes: Sizes, peer: ClientGoPeer | undefined): Promise<BenchFigure[]> {
  await queueCycles(sizes.cycles / 10, 100); // warm-up
  const batched = await bestOf(3, () => queueCycles(sizes.cycles, 100));
  const pingPong = await bestOf(3, () => queueCycles(sizes.cycles / 10, 1));
  const before = await burstBeforeWorker(10, 1000);
  const whileProcessing = await burstWhileProcessing(1000);
  let go: Record<string, number> | undefined;
  if (peer) {
    const events = await runClientGoPeer(peer, ["workqueue", "-cycles", String(sizes.cycles)]).done;
    go = events.find((e) => e.event === "workqueue") as unknown as Record<string, number>;
  }
  const peers = (key: string, ours: number) =>
    go ? [peerRate("client-go workqueue", ours, go[key] as number)] : [];
  const ratio = go ? batched / (go.cyclesPerSecond as number) : Number.NaN;
  const figures: BenchFigure[] = [
    {
      name: "workqueue add/get/done cycles, 1 producer + 1 worker, bursts of 100",
      value: batched,
      unit: "cycles/s",
      peers: peers("cyclesPerSecond", batched),
      notes: `best of 3 x ${sizes.cycles}; the worker waits in get() between bursts (hand-off included)`,
    },
    {
      name: "workqueue cycles, ping-pong (burst of 1: one hand-off per item)",
      value: pingPong,
      unit: "cycles/s",
      peers: peers("pingPongPerSecond", pingPong),
    },
    {
      name: "workqueue duplicate adds/s (10 keys x 1000 before the worker)",
      value: before.addsPerSecond,
      unit: "adds/s",
      peers: peers("burstAddsPerSecond", before.addsPerSecond),
      notes: `gets afterwards: ours ${before.gets}, client-go ${go?.burstGets ?? "-"} (10 expected)`,
    },
    judged({
      name: "workqueue gets after 1000 re-adds while the key is processed",
      value: whileProcessing,
      unit: "gets",
      target: "<= 2",
      notes: `client-go: ${go?.whileProcessingGets ?? "-"}; the re-adds park in dirty and come back once`,
    }),
  ];
  if (go)
    figures.push(
      judged({
        name: "workqueue cycles vs client-go (ours / client-go)",
        value: ratio,
        unit: "x",
        target: ">= 1",
      }),
    );
  return figures;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const sizes = ctx.tiny ? TINY : FULL;
  const lookup = await ctx.clientGo();
  const peer = lookup.peer;
  const missing = lookup.missing ? [lookup.missing] : [];
  const figures: BenchFigure[] = [];
  const charts: string[] = [];
  const host = await startEmbeddedHost();
  try {
    ctx.log("  informer initial sync...");
    const { table, notes } = await syncFigures(host, sizes, peer);
    const ours = table.get("ours") ?? [];
    sizes.objects.forEach((n, i) => {
      const o = ours[i] as number;
      const peers = [...table.entries()]
        .filter(([impl]) => impl !== "ours")
        .map(([impl, v]) => peerCost(impl, o, v[i] as number));
      figures.push({
        name: `informer initial sync, ${n.toLocaleString("en-US")} ConfigMaps (median of ${sizes.runs})`,
        value: o,
        unit: "ms",
        peers,
        notes: notes.filter((x) => x.startsWith(`${n}:`)).join("; "),
      });
    });
    const at10k =
      sizes.objects.indexOf(10_000) >= 0 ? sizes.objects.indexOf(10_000) : sizes.objects.length - 1;
    for (const impl of ["client-node", "client-go watch-list", "client-go LIST"] as const) {
      const peerMs = table.get(impl)?.[at10k];
      if (peerMs === undefined) continue;
      figures.push(
        judged({
          name: `initial sync at ${sizes.objects[at10k]} vs ${impl} (its time / ours)`,
          value: peerMs / (ours[at10k] as number),
          unit: "x",
          target: ">= 1",
        }),
      );
    }
    charts.push(
      xyChart({
        title: `Initial sync ms by size; lines: ${[...table.keys()].join(", ")}`,
        x: sizes.objects,
        xLabel: "ConfigMaps",
        yLabel: "ms",
        series: [...table.values()].map((values) => ({ kind: "line" as const, values })),
      }),
    );

    ctx.log("  update throughput...");
    const t = await throughputFigures(host, sizes, peer);
    figures.push({
      name: `update events/s into a synced informer (${sizes.updates} updates written as fast as the server takes them)`,
      value: t.ours,
      unit: "events/s",
      peers: [
        peerRate("client-node", t.ours, t.node),
        ...(t.go === undefined ? [] : [peerRate("client-go", t.ours, t.go)]),
      ],
      notes: `median of ${sizes.throughputRounds} rounds taken in turn after an untimed warm-up round, from the first write to the last handler call; the writer (the server) bounds all three; rounds ours ${fmtRates(t.rounds.ours)}, client-node ${fmtRates(t.rounds.node)}${t.go === undefined ? "" : `, client-go ${fmtRates(t.rounds.go)}`}`,
    });
    for (const [impl, theirs] of [
      ["client-node", t.node],
      ["client-go", t.go],
    ] as const) {
      if (theirs === undefined) continue;
      figures.push(
        judged({
          name: `update events/s into a synced informer vs ${impl} (ours / theirs)`,
          value: t.ours / theirs,
          unit: "x",
          target: ">= 1",
        }),
      );
    }

    ctx.log("  memory per cached object...");
    const m = await memoryFigures(host, sizes, peer);
    figures.push({
      name: `memory per cached ConfigMap (${sizes.memoryAt} objects)`,
      value: m.ours,
      unit: "bytes",
      peers: [
        peerCost("client-node (V8 heap)", m.ours, m.node),
        ...(m.go ? [peerCost("client-go (Go heap in use)", m.ours, m.go.heapInUsePerObject)] : []),
      ],
      notes: `heap with the cache minus heap once the informer is stopped, after forced GCs${m.go ? `; client-go live heap (HeapAlloc) ${m.go.heapAllocPerObject.toFixed(0)} B/object` : ""}`,
    });
    charts.push(
      xyChart({
        title: "Bytes per cached ConfigMap; bars: ours, client-node, client-go",
        x: ["ours", "client-node", ...(m.go ? ["client-go"] : [])],
        yLabel: "bytes",
        series: [{ kind: "bar", values: [m.ours, m.node, ...(m.go ? [m.go.heapInUsePerObject] : [])] }],
      }),
    );
  } finally {
    await host.stop();
  }
  ctx.log("  workqueue cycles...");
  figures.push(...(await workqueueFigures(sizes, peer)));
  return { figures, charts, missing };
}

/** The client-go peer family. */
export const benchmark: Benchmark = {
  name: "client-go",
  title: "informer sync, event throughput, memory per object and workqueue against client-go and client-node",
  run,
};
