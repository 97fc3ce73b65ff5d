/**
 * The embedded server against real ones, same client, same run: the load generators of the apiserver suite
 * (worker threads speaking HTTPS with keep-alive) pointed in turn at the embedded backend, at envtest (real
 * kube-apiserver + etcd) and at kind when a container runtime answers. Figures per backend: start-to-ready time,
 * creates/s from 16 clients, client-side LIST latency of 10,000 ConfigMaps, and watch fan-out (W watchers while
 * E events/s are written over HTTP: write-to-delivery p50/p99). Targets: the embedded server at least 5x
 * envtest's creates/s and at most a fifth of its LIST latency.
 *
 * The fan-out capacity ladder (issue 27), embedded server and envtest side by side: at 100 and at 1,000 watchers,
 * rates from 10 events/s upwards, each rung on a fresh namespace, until a rung's p99 goes over 20 ms or an event
 * is lost. Targets: at every rung both servers ran, our p99 at most envtest's; the highest rate inside p99 20 ms
 * at 1,000 watchers at least 2x envtest's. (This replaces the scale family's 1,000 watchers x 1,000 events/s, a
 * million deliveries a second on 2 cores.)
 *
 * Like for like: envtest is kube-apiserver and etcd with no controller manager, so the embedded server is
 * measured the same way (`embedded`: no control-plane controllers, no Lease renewals), and a second time as a
 * learner starts it (`embedded+cp`: its garbage collector and namespace controller run in the same process and
 * watch every write, as kind's kube-controller-manager does beside its server). The targets use `embedded`.
 */
import https from "node:https";
import { findEnvtestAssets } from "../../../control-plane/cluster/envtest/assets.js";
import {
  type Cluster,
  type ClusterBackend,
  type StartClusterOptions,
  startCluster,
} from "../../../control-plane/cluster/index.js";
import { containerRuntimeUnavailableReason } from "../../../control-plane/cluster/kind/runtime.js";
import { xyChart } from "../../../workbook/viz/xychart.js";
import { runLoad } from "../apiserver.js";
import { median } from "../measure.js";
import {
  type BenchContext,
  type BenchFigure,
  type Benchmark,
  type BenchResult,
  judged,
  peerCost,
  peerRate,
} from "../types.js";
import { serverAddressOf } from "./cluster-address.js";
import type { ServerAddress } from "./raw-client.js";
import { FAN_OUT_P99_MS, type FanOut, withinTarget } from "./scale.js";

interface Sizes {
  starts: number;
  creates: number;
  listed: number;
  lists: number;
  watchers: number;
  eventsPerSecond: number;
  watchSeconds: number;
  /** Watcher counts of the capacity ladder, and its rates (events/s), lowest first. */
  ladderWatchers: number[];
  ladderRates: number[];
}

const FULL: Sizes = {
  starts: 3,
  creates: 10_000,
  listed: 10_000,
  lists: 7,
  watchers: 100,
  eventsPerSecond: 500,
  watchSeconds: 3,
  ladderWatchers: [100, 1000],
  ladderRates: [10, 30, 100, 300, 1000],
};
const TINY: Sizes = {
  starts: 1,
  creates: 200,
  listed: 200,
  lists: 3,
  watchers: 5,
  eventsPerSecond: 50,
  watchSeconds: 0.5,
  ladderWatchers: [5],
  ladderRates: [20, 50],
};

interface BackendFigures {
  startMs: number;
  createsPerSecond: number;
  listMs: number;
  watchP50: number;
  watchP99: number;
  delivered: number;
  /** The capacity ladder's rungs, in the order run (empty for backends it does not run on). */
  ladder: Rung[];
}

/** One rung of the capacity ladder: a fan-out run at `watchers` x `rate` events/s. */
interface Rung extends FanOut {
  watchers: number;
  rate: number;
}

/**
 * `watchers` watch streams (worker thread) on a fresh `namespace` while `perSecond` ConfigMaps are created there
 * for `seconds`; the watchers stop 5 s after the last write, and what has not arrived by then is lost.
 */
async function fanOut(
  address: ServerAddress,
  namespace: string,
  watchers: number,
  perSecond: number,
  seconds: number,
): Promise<FanOut> {
  await ensureNamespace(address, namespace);
  const writes = Math.max(1, Math.round(perSecond * seconds));
  let writing: Promise<unknown> = Promise.resolve();
  const result = await runLoad(
    address,
    { job: "watch", namespace, watchers, expected: writes * watchers },
    (worker) => {
      writing = runLoad(address, { job: "creates", namespace, count: writes, clients: 4, perSecond }).then(
        () => setTimeout(() => worker.postMessage("stop"), 5000).unref(),
      );
    },
  );
  await writing;
  if (result.kind !== "watch") throw new Error("unexpected load result");
  return { p50: result.p50, p99: result.p99, delivered: result.delivered / (writes * watchers) };
}

/** The ladder at each watcher count, stopping a count at its first rung outside the bound. */
async function ladderOf(address: ServerAddress, sizes: Sizes, log: (l: string) => void, label: string) {
  const rungs: Rung[] = [];
  for (const watchers of sizes.ladderWatchers) {
    for (const rate of sizes.ladderRates) {
      log(`  ${label}: fan-out ladder, ${watchers} watchers x ${rate} events/s...`);
      const rung = {
        watchers,
        rate,
        ...(await fanOut(address, `bench-fan-${watchers}-${rate}`, watchers, rate, sizes.watchSeconds)),
      };
      rungs.push(rung);
      if (!withinTarget(rung)) break;
    }
  }
  return rungs;
}

/** Creates a namespace (201, or 409 when it exists). */
function ensureNamespace(address: ServerAddress, name: string): Promise<void> {
  const url = new URL(address.url);
  const body = JSON.stringify({ metadata: { name } });
  return new Promise<void>((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/v1/namespaces",
        headers: {
          authorization: `Bearer ${address.token}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
        },
        ca: address.caPem,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 201 || res.statusCode === 409
            ? resolve()
            : reject(new Error(`namespace ${name}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One server measured: a backend and how it is started. */
interface Contender {
  /** Column name in the report. */
  label: string;
  backend: ClusterBackend;
  options?: Omit<StartClusterOptions, "backend">;
}

/** The embedded API server alone, as envtest runs kube-apiserver: no controllers, no Lease renewals. */
const EMBEDDED_SERVER: Contender = {
  label: "embedded",
  backend: "embedded",
  options: {
    embedded: { controllers: { garbageCollector: false, namespace: false }, leaderElection: false },
  },
};
/** The contenders the fan-out capacity ladder runs on: like for like, API servers without controllers. */
const LADDER_CONTENDERS = ["embedded", "envtest"];
/** The embedded backend as `startCluster()` gives it to a learner: its control plane runs in the same process. */
const EMBEDDED_WITH_CONTROL_PLANE: Contender = { label: "embedded+cp", backend: "embedded" };

async function measure(
  contender: Contender,
  sizes: Sizes,
  log: (l: string) => void,
): Promise<BackendFigures> {
  const label = contender.label;
  // The last start is the cluster the load runs against.
  const starts: number[] = [];
  let cluster: Cluster | undefined;
  for (let i = 0; i < sizes.starts; i++) {
    const t0 = performance.now();
    const c = await startCluster({ ...contender.options, backend: contender.backend });
    starts.push(performance.now() - t0);
    if (i < sizes.starts - 1) await c.stop();
    else cluster = c;
  }
  if (!cluster) throw new Error("no start");
  log(`  ${label}: started in ${median(starts).toFixed(0)} ms; load...`);
  try {
    const address = serverAddressOf(cluster.kubeConfig);
    if (typeof address === "string") throw new Error(`${label}: ${address}`);
    await ensureNamespace(address, "bench-creates");
    await ensureNamespace(address, "bench-list");
    await runLoad(address, {
      job: "creates",
      namespace: "bench-creates",
      // As long as the measured run: the embedded server is JIT-compiled as it goes, kube-apiserver is not.
      count: sizes.creates,
      clients: 16,
      prefix: "warm-",
    });
    const creates = await runLoad(address, {
      job: "creates",
      namespace: "bench-creates",
      count: sizes.creates,
      clients: 16,
    });
    if (creates.kind !== "creates") throw new Error("unexpected load result");
    await runLoad(address, {
      job: "creates",
      namespace: "bench-list",
      count: sizes.listed,
      clients: 16,
      data: { payload: "x".repeat(1024) },
    });
    const lists = await runLoad(address, { job: "list", namespace: "bench-list", lists: sizes.lists });
    if (lists.kind !== "list") throw new Error("unexpected load result");
    const watch = await fanOut(
      address,
      "bench-watch",
      sizes.watchers,
      sizes.eventsPerSecond,
      sizes.watchSeconds,
    );
    const ladder = LADDER_CONTENDERS.includes(label) ? await ladderOf(address, sizes, log, label) : [];
    return {
      startMs: median(starts),
      createsPerSecond: creates.perSecond,
      listMs: median(lists.ms.slice(Math.min(2, lists.ms.length - 1))),
      watchP50: watch.p50,
      watchP99: watch.p99,
      delivered: watch.delivered,
      ladder,
    };
  } finally {
    await cluster.stop();
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const sizes = ctx.tiny ? TINY : FULL;
  const missing: string[] = [];
  const contenders: Contender[] = [EMBEDDED_SERVER, EMBEDDED_WITH_CONTROL_PLANE];
  if (findEnvtestAssets()) contenders.push({ label: "envtest", backend: "envtest" });
  else
    missing.push(
      "envtest: no kube-apiserver binaries (run `workbook envtest build` or set KUBEBUILDER_ASSETS)",
    );
  const kindReason = ctx.tiny
    ? "not started in the tiny run (minutes to boot)"
    : await containerRuntimeUnavailableReason();
  if (kindReason === undefined) contenders.push({ label: "kind", backend: "kind" });
  else missing.push(`kind: ${kindReason}`);
  const results = new Map<string, BackendFigures>();
  for (const c of contenders) {
    try {
      results.set(c.label, await measure(c, sizes, ctx.log));
    } catch (err) {
      if (c.backend === "embedded") throw err;
      missing.push(`${c.label}: failed: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  const ours = results.get(EMBEDDED_SERVER.label) as BackendFigures;
  // Peers: every other column, the embedded backend with its control plane included.
  const real = [...results.entries()].filter(([b]) => b !== EMBEDDED_SERVER.label);
  const figures: BenchFigure[] = [
    {
      name: `start to ready API (median of ${sizes.starts})`,
      value: ours.startMs,
      unit: "ms",
      peers: real.map(([b, r]) => peerCost(b, ours.startMs, r.startMs)),
    },
    {
      name: "creates/s, 16 HTTPS keep-alive clients (embedded: API server only, as envtest)",
      value: ours.createsPerSecond,
      unit: "creates/s",
      peers: real.map(([b, r]) => peerRate(b, ours.createsPerSecond, r.createsPerSecond)),
      notes: `${sizes.creates} ConfigMaps after a warm-up of as many; clients in a worker thread`,
    },
    {
      name: `LIST ${sizes.listed} ConfigMaps of 1 KiB, client side, median`,
      value: ours.listMs,
      unit: "ms",
      peers: real.map(([b, r]) => peerCost(b, ours.listMs, r.listMs)),
      notes: "request sent to last byte read, one keep-alive connection, JSON",
    },
    {
      name: `watch fan-out p99, ${sizes.watchers} watchers x ${sizes.eventsPerSecond} events/s`,
      value: ours.watchP99,
      unit: "ms",
      peers: real.map(([b, r]) => peerCost(b, ours.watchP99, r.watchP99)),
      notes: [...results.entries()]
        .map(
          ([b, r]) => `${b}: p50 ${r.watchP50.toFixed(1)} ms, ${(r.delivered * 100).toFixed(1)}% delivered`,
        )
        .join("; "),
    },
  ];
  const envtest = results.get("envtest");
  if (envtest) {
    figures.push(
      judged({
        name: "creates/s: embedded / envtest",
        value: ours.createsPerSecond / envtest.createsPerSecond,
        unit: "x",
        target: ">= 5",
      }),
      judged({
        name: `LIST latency at ${sizes.listed}: envtest / embedded`,
        value: envtest.listMs / ours.listMs,
        unit: "x",
        target: ">= 5",
        notes: "at most a fifth of envtest's latency",
      }),
    );
  }
  figures.push(...ladderFigures(sizes, ours.ladder, envtest?.ladder));
  const names = [...results.keys()];
  const charts = [
    ...sizes.ladderWatchers.map((w) => ladderChart(w, ours.ladder, envtest?.ladder)),
    xyChart({
      title: `Creates per second by backend (${names.join(", ")})`,
      x: names,
      yLabel: "creates/s",
      series: [
        { kind: "bar", values: names.map((b) => (results.get(b) as BackendFigures).createsPerSecond) },
      ],
    }),
    xyChart({
      title: `LIST ${sizes.listed} ConfigMaps, ms, and watch p99 ms by backend; bars: LIST, line: watch p99`,
      x: names,
      yLabel: "ms",
      series: [
        { kind: "bar", values: names.map((b) => (results.get(b) as BackendFigures).listMs) },
        { kind: "line", values: names.map((b) => (results.get(b) as BackendFigures).watchP99) },
      ],
    }),
  ];
  return { figures, charts, missing };
}

/** The highest rate inside the bound at `watchers` (0 when even the lowest rung was outside). */
function capacity(rungs: readonly Rung[], watchers: number): number {
  return rungs.filter((r) => r.watchers === watchers && withinTarget(r)).at(-1)?.rate ?? 0;
}

const describeRungs = (rungs: readonly Rung[], watchers: number) =>
  rungs
    .filter((r) => r.watchers === watchers)
    .map(
      (r) =>
        `${r.rate}/s p99 ${r.p99.toFixed(1)} ms${r.delivered < 1 ? ` (${(r.delivered * 100).toFixed(1)}% delivered)` : ""}`,
    )
    .join(", ");

/**
 * The ladder's figures: per watcher count, the capacity beside envtest's and the p99 comparison at every rung
 * both ran (judged: ours at most envtest's at each), and at the largest count the capacity ratio (judged >= 2).
 */
function ladderFigures(
  sizes: Sizes,
  ours: readonly Rung[],
  envtest: readonly Rung[] | undefined,
): BenchFigure[] {
  const figures: BenchFigure[] = [];
  const largest = Math.max(...sizes.ladderWatchers);
  for (const w of sizes.ladderWatchers) {
    const mine = capacity(ours, w);
    figures.push({
      name: `fan-out capacity at ${w.toLocaleString("en-US")} watchers: highest events/s with p99 <= ${FAN_OUT_P99_MS} ms`,
      value: mine,
      unit: "events/s",
      ...(envtest ? { peers: [peerRate("envtest", mine, capacity(envtest, w))] } : {}),
      notes: `embedded: ${describeRungs(ours, w)}${envtest ? `; envtest: ${describeRungs(envtest, w)}` : ""}`,
    });
    if (!envtest) continue;
    const common = ours.filter(
      (r) => r.watchers === w && envtest.some((e) => e.watchers === w && e.rate === r.rate),
    );
    const ratios = common.map((r) => {
      const theirs = envtest.find((e) => e.watchers === w && e.rate === r.rate) as Rung;
      return { rate: r.rate, ratio: theirs.p99 / r.p99 };
    });
    const worst = ratios.reduce<(typeof ratios)[number] | undefined>(
      (a, b) => (a && a.ratio <= b.ratio ? a : b),
      undefined,
    );
    figures.push(
      judged({
        name: `fan-out p99 at ${w.toLocaleString("en-US")} watchers, envtest / embedded at the worst common rung`,
        value: worst?.ratio ?? Number.NaN,
        unit: "x",
        target: ">= 1",
        notes: `at ${worst?.rate ?? "-"} events/s; every common rung: ${ratios.map((r) => `${r.rate}/s ${r.ratio.toFixed(2)}x`).join(", ")}`,
      }),
    );
    if (w === largest) {
      const theirs = capacity(envtest, w);
      figures.push(
        judged({
          name: `fan-out capacity at ${w.toLocaleString("en-US")} watchers: embedded / envtest`,
          // envtest outside the bound even at the lowest rate: its capacity is below that rate, so the ratio is
          // at least ours over it (a finite lower bound; judged() gives no verdict on an infinite value).
          value: mine / (theirs > 0 ? theirs : (sizes.ladderRates[0] as number)),
          unit: "x",
          target: ">= 2",
          notes: `embedded ${mine} events/s, envtest ${theirs > 0 ? `${theirs} events/s` : `below ${sizes.ladderRates[0]} events/s (the ratio is a lower bound)`}`,
        }),
      );
    }
  }
  return figures;
}

/** p99 against the rate at one watcher count, a line per server. */
function ladderChart(watchers: number, ours: readonly Rung[], envtest: readonly Rung[] | undefined): string {
  const rates = [
    ...new Set([...ours, ...(envtest ?? [])].filter((r) => r.watchers === watchers).map((r) => r.rate)),
  ].sort((a, b) => a - b);
  const p99At = (rungs: readonly Rung[]) =>
    rates.map((rate) => rungs.find((r) => r.watchers === watchers && r.rate === rate)?.p99 ?? 0);
  return xyChart({
    title: `fan-out p99 (ms) at ${watchers.toLocaleString("en-US")} watchers by events/s; lines: embedded${envtest ? ", envtest" : ""} (0: not run)`,
    x: rates,
    xLabel: "events/s",
    yLabel: "p99 ms",
    series: [
      { kind: "line", values: p99At(ours) },
      ...(envtest ? [{ kind: "line" as const, values: p99At(envtest) }] : []),
    ],
  });
}

/** The embedded-vs-real-servers family. */
export const benchmark: Benchmark = {
  name: "backends",
  title: "embedded against envtest (and kind): start-to-ready, creates/s, LIST at 10k, watch fan-out",
  run,
};
