/**
 * Watch vs poll, the first idea of the workbook as numbers: N controllers keep up with M ConfigMaps while one of
 * them changes every second (1/s). Three ways:
 * - poll every 1 s: each controller LISTs the namespace on its own timer (random phase) and diffs
 *   resourceVersions;
 * - poll every 10 s: the same, ten times less often;
 * - one shared watch: one LIST, then one watch stream whose events are fanned out to the N controllers (a
 *   shared informer).
 * Measured in the steady state (after the initial LIST, which every way pays once): requests/s, response bytes/s
 * and write-to-notice delay (p50/p99, from the `data.sent` stamp the writer puts on each change to the handler).
 * Sizes sweep M at N = 1 and N at M = 100; the log-log charts and fitted slopes show how each cost grows.
 */
import { xyChart } from "../../../workbook/viz/xychart.js";
import { type EmbeddedHost, startEmbeddedHost } from "../embedded-host.js";
import { log10, logLogSlope, percentile, sorted, wallMs } from "../measure.js";
import { type BenchContext, type BenchFigure, type Benchmark, type BenchResult, judged } from "../types.js";
import { CountingClient } from "./raw-client.js";

type Mode = "poll-fast" | "poll-slow" | "watch";

interface Sizes {
  mSweep: number[];
  nSweep: number[];
  /** M for the N sweep. */
  nSweepObjects: number;
  fastMs: number;
  slowMs: number;
  changesPerSecond: number;
  windowMs: number;
  slowWindowMs: number;
}

const FULL: Sizes = {
  mSweep: [100, 1000, 10_000],
  nSweep: [1, 10, 100],
  nSweepObjects: 100,
  fastMs: 1000,
  slowMs: 10_000,
  changesPerSecond: 1,
  windowMs: 10_000,
  slowWindowMs: 20_000,
};
const TINY: Sizes = {
  mSweep: [10, 20, 40],
  nSweep: [1, 2, 4],
  nSweepObjects: 10,
  fastMs: 100,
  slowMs: 300,
  changesPerSecond: 10,
  windowMs: 250,
  slowWindowMs: 600,
};

/** One mode in one scenario. */
interface Outcome {
  requestsPerSecond: number;
  bytesPerSecond: number;
  p50: number;
  p99: number;
  samples: number;
}

interface Item {
  metadata: { name: string; resourceVersion: string };
  data?: { sent?: string };
}

/** N pollers, each with its own timer and view; counts only what happens after `reset`. */
async function poll(
  host: EmbeddedHost,
  ns: string,
  n: number,
  m: number,
  intervalMs: number,
  windowMs: number,
  rate: number,
) {
  const client = new CountingClient(host, Math.max(1, n));
  const delays: number[] = [];
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  let running = true;
  let measuring = false;
  const loops = Array.from({ length: n }, async () => {
    const seen = new Map<string, string>();
    for (const it of (await client.getJson<{ items: Item[] }>(path)).items)
      seen.set(it.metadata.name, it.metadata.resourceVersion);
    await new Promise((r) => setTimeout(r, Math.random() * intervalMs));
    while (running) {
      const next = performance.now() + intervalMs;
      const list = await client.getJson<{ items: Item[] }>(path);
      const now = wallMs();
      for (const it of list.items) {
        if (seen.get(it.metadata.name) === it.metadata.resourceVersion) continue;
        seen.set(it.metadata.name, it.metadata.resourceVersion);
        if (measuring && it.data?.sent) delays.push(now - Number(it.data.sent));
      }
      const wait = next - performance.now();
      if (wait > 0 && running) await new Promise((r) => setTimeout(r, wait));
    }
  });
  await new Promise((r) => setTimeout(r, Math.min(intervalMs, 1000)));
  client.reset();
  measuring = true;
  const start = performance.now();
  await host.churn(ns, m, rate, windowMs);
  const seconds = (performance.now() - start) / 1000;
  const counts = { ...client.counts };
  running = false;
  await Promise.all(loops);
  client.close();
  return outcome(counts, seconds, delays);
}

/** One LIST and one watch, events fanned out to N handlers. */
async function watch(host: EmbeddedHost, ns: string, n: number, m: number, windowMs: number, rate: number) {
  const client = new CountingClient(host);
  const delays: number[] = [];
  const list = await client.getJson<{ metadata: { resourceVersion: string }; items: Item[] }>(
    `/api/v1/namespaces/${ns}/configmaps`,
  );
  const handlers = Array.from({ length: n }, () => (sent: number) => delays.push(wallMs() - sent));
  const stop = await client.watch(
    `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}&allowWatchBookmarks=true`,
    (line) => {
      const m = /"sent":"([\d.]+)"/.exec(line);
      if (m) for (const h of handlers) h(Number(m[1]));
    },
  );
  client.reset();
  const start = performance.now();
  await host.churn(ns, m, rate, windowMs);
  await new Promise((r) => setTimeout(r, 100)); // the last event's delivery
  const seconds = (performance.now() - start) / 1000;
  const counts = { ...client.counts };
  stop();
  client.close();
  return outcome(counts, seconds, delays);
}

function outcome(counts: { requests: number; bytes: number }, seconds: number, delays: number[]): Outcome {
  const s = sorted(delays);
  return {
    requestsPerSecond: counts.requests / seconds,
    bytesPerSecond: counts.bytes / seconds,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    samples: s.length,
  };
}

async function scenario(
  host: EmbeddedHost,
  sizes: Sizes,
  n: number,
  m: number,
): Promise<Record<Mode, Outcome>> {
  const ns = `wp-${n}-${m}`;
  await host.fill(ns, m);
  const rate = sizes.changesPerSecond;
  return {
    watch: await watch(host, ns, n, m, sizes.windowMs, rate),
    "poll-fast": await poll(host, ns, n, m, sizes.fastMs, sizes.windowMs, rate),
    "poll-slow": await poll(host, ns, n, m, sizes.slowMs, sizes.slowWindowMs, rate),
  };
}

const fmt = (o: Outcome) =>
  `${o.requestsPerSecond.toFixed(1)} req/s, p50 ${o.p50.toFixed(0)} ms, p99 ${o.p99.toFixed(0)} ms (${o.samples} notices)`;

async function run(ctx: BenchContext): Promise<BenchResult> {
  const sizes = ctx.tiny ? TINY : FULL;
  const fast = `poll ${sizes.fastMs / 1000} s`;
  const slow = `poll ${sizes.slowMs / 1000} s`;
  const host = await startEmbeddedHost();
  const figures: BenchFigure[] = [];
  const charts: string[] = [];
  try {
    const results = new Map<string, Record<Mode, Outcome>>();
    const get = async (n: number, m: number) => {
      const key = `${n}x${m}`;
      if (!results.has(key)) {
        ctx.log(`  ${n} controller(s) x ${m} objects...`);
        results.set(key, await scenario(host, sizes, n, m));
      }
      return results.get(key) as Record<Mode, Outcome>;
    };
    const sweeps = [
      { axis: "objects M (N = 1)", points: sizes.mSweep.map((m) => [1, m] as const), x: sizes.mSweep },
      {
        axis: `controllers N (M = ${sizes.nSweepObjects})`,
        points: sizes.nSweep.map((n) => [n, sizes.nSweepObjects] as const),
        x: sizes.nSweep,
      },
    ];
    for (const sweep of sweeps) {
      const series: Record<Mode, number[]> = { watch: [], "poll-fast": [], "poll-slow": [] };
      for (const [n, m] of sweep.points) {
        const r = await get(n, m);
        for (const mode of Object.keys(series) as Mode[]) series[mode].push(r[mode].bytesPerSecond);
        figures.push({
          name: `${n} controller(s) x ${m} objects, ${sizes.changesPerSecond} change/s: watch bytes/s`,
          value: r.watch.bytesPerSecond,
          unit: "bytes/s",
          peers: [
            {
              name: fast,
              value: r["poll-fast"].bytesPerSecond,
              ratio: r["poll-fast"].bytesPerSecond / r.watch.bytesPerSecond,
            },
            {
              name: slow,
              value: r["poll-slow"].bytesPerSecond,
              ratio: r["poll-slow"].bytesPerSecond / r.watch.bytesPerSecond,
            },
          ],
          notes: `watch: ${fmt(r.watch)}; ${fast}: ${fmt(r["poll-fast"])}; ${slow}: ${fmt(r["poll-slow"])}`,
        });
      }
      for (const [mode, label] of [
        ["poll-fast", fast],
        ["poll-slow", slow],
        ["watch", "shared watch"],
      ] as const) {
        figures.push({
          name: `${label}: log-log slope of bytes/s against ${sweep.axis}`,
          value: logLogSlope(sweep.x, series[mode]),
          unit: "slope",
          notes: "1 = grows linearly with the size, 0 = does not grow",
        });
      }
      charts.push(
        xyChart({
          title: `log10 bytes/s vs log10 ${sweep.axis}; lines: ${fast}, ${slow}, shared watch`,
          x: sweep.x.map((v) => log10(v).toFixed(1)),
          xLabel: `log10 ${sweep.axis}`,
          yLabel: "log10 bytes/s",
          series: (["poll-fast", "poll-slow", "watch"] as const).map((mode) => ({
            kind: "line" as const,
            values: series[mode].map(log10),
          })),
        }),
      );
    }
    const targetM = ctx.tiny ? (sizes.mSweep[1] as number) : 1000;
    const t = await get(1, targetM);
    figures.push(
      judged({
        name: `bytes: ${fast} / watch at 1 controller x ${targetM} objects, ${sizes.changesPerSecond} change/s`,
        value: t["poll-fast"].bytesPerSecond / t.watch.bytesPerSecond,
        unit: "x",
        target: ">= 100",
        notes: "steady state, after the initial LIST both pay once",
      }),
      {
        name: `write-to-notice p99, 1 controller x ${targetM} objects: shared watch`,
        value: t.watch.p99,
        unit: "ms",
        peers: [
          { name: fast, value: t["poll-fast"].p99, ratio: t["poll-fast"].p99 / t.watch.p99 },
          { name: slow, value: t["poll-slow"].p99, ratio: t["poll-slow"].p99 / t.watch.p99 },
        ],
        notes: `p50: watch ${t.watch.p50.toFixed(1)} ms, ${fast} ${t["poll-fast"].p50.toFixed(0)} ms, ${slow} ${t["poll-slow"].p50.toFixed(0)} ms`,
      },
    );
  } finally {
    await host.stop();
  }
  return { figures, charts, missing: [] };
}

/** The watch-vs-poll family. */
export const benchmark: Benchmark = {
  name: "watch-vs-poll",
  title:
    "requests, bytes and notice delay of polling at two intervals against one shared watch, as N and M grow",
  run,
};
