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

/** One round of the update figure: arrival rate, the writer's own rate, and the client's CPU per event. */
interface UpdateRound {
  perSecond: number;
  writerPerSecond: number;
  cpuUsPerEvent: number;
}

/**
 * Update events into a synced informer, per implementation: `throughputRounds` rounds taken in turn (ours,
 * client-node, client-go, ours, ...) after one untimed round that warms the server's update and watch path
 * (measured first and once, ours used to pay for the server's JIT warm-up). In each round the host rewrites
 * `updates` ConfigMaps as fast as it can while the informer counts its handler's update calls. The arrival rate
 * is bounded by the writer (the server process), so the client's own cost is read as CPU time: this process's
 * `process.cpuUsage()` (ours, client-node) or the Go peer's getrusage, from the first write to the last handler
 * call, per event.
 */
async function throughputFigures(host: EmbeddedHost, sizes: Sizes, peer: ClientGoPeer | undefined) {
  const kc = kubeConfigFrom(host.kubeconfigPath);
  const n = sizes.memoryAt;
  const ns = `sync-${n}`;
  const u = sizes.updates;
  const round = async (sync: () => Promise<SyncedInformer>): Promise<UpdateRound> => {
    const s = await sync();
    try {
      const arrived = s.updates(u);
      const cpu = process.cpuUsage();
      const { startMs, endMs } = await host.update(ns, u, n);
      const lastMs = await arrived;
      const used = process.cpuUsage(cpu);
      return {
        perSecond: u / ((lastMs - startMs) / 1000),
        writerPerSecond: u / ((endMs - startMs) / 1000),
        cpuUsPerEvent: (used.user + used.system) / u,
      };
    } finally {
      await s.stop();
    }
  };
  const goRound = async (p: ClientGoPeer): Promise<UpdateRound> => {
    let written = { startMs: 0, endMs: 0 };
    const r = await syncClientGo(p, host.kubeconfigPath, ns, n, {
      runs: 1,
      watchList: true,
      updates: u,
      onReady: async () => {
        written = await host.update(ns, u, n);
      },
    });
    return {
      perSecond: u / (((r.lastUpdateMs ?? Number.NaN) - written.startMs) / 1000),
      writerPerSecond: u / ((written.endMs - written.startMs) / 1000),
      cpuUsPerEvent: ((r.updateCpuMs ?? Number.NaN) * 1000) / u,
    };
  };
  await round(() => syncOurs(kc, ns, n)); // warm-up of the server's update path, not counted
  const ours: UpdateRound[] = [];
  const node: UpdateRound[] = [];
  const go: UpdateRound[] = [];
  for (let r = 0; r < sizes.throughputRounds; r++) {
    ours.push(await round(() => syncOurs(kc, ns, n)));
    node.push(await round(() => syncClientNode(kc, ns, n)));
    if (peer) go.push(await goRound(peer));
  }
  const summary = (rounds: UpdateRound[]) => ({
    perSecond: median(rounds.map((x) => x.perSecond)),
    cpuUsPerEvent: median(rounds.map((x) => x.cpuUsPerEvent)),
    // How far arrival trails the writer: 1 means the informer kept up with every write.
    ofWriter: median(rounds.map((x) => x.perSecond / x.writerPerSecond)),
    rounds,
  });
  return { ours: summary(ours), node: summary(node), go: peer ? summary(go) : undefined };
}

const fmtRates = (rates: number[]) => rates.map((r) => Math.round(r).toLocaleString("en-US")).join(" / ");

/**
 * The update figures: events/s as they arrived (unjudged: the writer bounds it, and each implementation's share
 * of the writer's rate says so), and the informer's CPU per event, judged against each peer.
 */
function updateFigures(t: Awaited<ReturnType<typeof throughputFigures>>, sizes: Sizes): BenchFigure[] {
  const peers = [
    ["client-node", t.node],
    ["client-go", t.go],
  ] as const;
  const share = (x: { ofWriter: number }) => `${(x.ofWriter * 100).toFixed(1)}%`;
  const present = peers.flatMap(([impl, x]) => (x ? [[impl, x] as const] : []));
  const shares = [`${share(t.ours)} (ours)`, ...present.map(([impl, x]) => `${share(x)} (${impl})`)];
  const rounds = [["ours", t.ours] as const, ...present]
    .map(([impl, x]) => `${impl} ${fmtRates(x.rounds.map((r) => r.perSecond))}`)
    .join(", ");
  const figures: BenchFigure[] = [
    {
      name: `update events/s into a synced informer (${sizes.updates} updates written as fast as the server takes them)`,
      value: t.ours.perSecond,
      unit: "events/s",
      peers: present.map(([impl, x]) => peerRate(impl, t.ours.perSecond, x.perSecond)),
      notes: `median of ${sizes.throughputRounds} rounds taken in turn after an untimed warm-up round, from the first write to the last handler call; not judged: the writer (the server process) bounds it, arrival at ${shares.join(", ")} of the writer's own rate; rounds ${rounds}`,
    },
    {
      name: "informer CPU per update event (user + system, from the first write to the last handler call)",
      value: t.ours.cpuUsPerEvent,
      unit: "µs",
      peers: present.map(([impl, x]) => peerCost(impl, t.ours.cpuUsPerEvent, x.cpuUsPerEvent)),
      notes: `median of ${sizes.throughputRounds} rounds; ours and client-node from process.cpuUsage() of this process, client-go from the Go peer's getrusage; it includes the HTTP read and JSON decode of each watch event (client-node's Watch for both Node informers) and garbage collection`,
    },
  ];
  for (const [impl, x] of present) {
    figures.push(
      judged({
        name: `informer CPU per update event vs ${impl} (ours / theirs)`,
        value: t.ours.cpuUsPerEvent / x.cpuUsPerEvent,
        unit: "x",
        target: "<= 1",
      }),
    );
  }
  return figures;
}

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
    figures.push(...updateFigures(await throughputFigures(host, sizes, peer), sizes));

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
