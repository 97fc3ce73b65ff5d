import type { ApiMetrics } from "../../control-plane/apiserver/instruments/metrics.js";
import { markdownTable } from "../viz/table.js";
import { knownLatencies, latencies, type Notice, percentile } from "./latency.js";
import type { ChangeWriter } from "./writer.js";

/** One point of the sweep: N controllers observing M objects while R writes per second arrive. */
export interface Size {
  controllers: number;
  objects: number;
  perSecond: number;
}

/** What one {@link Size} cost, from the server's counters (kube-apiserver's request and response-size metrics). */
export interface Cost {
  size: Size;
  /** Poll and watch bytes per second of the window. */
  pollBytes: number;
  watchBytes: number;
  /** LISTs per second of the window (the pollers'). */
  pollRequests: number;
  /** Watches the watchers opened (one each, unless one ended and resumed). */
  watchRequests: number;
  /** Writes the writer managed to send in the window (a busy machine sends fewer than asked). */
  writes: number;
  /** All watch bytes of the window, counted once every watcher had received the last write. */
  watchBytesTotal: number;
  /** Watch bytes per write sent: what one change costs, whatever the writer managed. */
  watchBytesPerWrite: number;
  /** The watchers' initial LISTs, paid once before the window. */
  watchListBytes: number;
  /** Median write-to-notice latency of the first poller and the first watcher (ms). */
  pollP50: number;
  watchP50: number;
}

/** An observer the sweep can run: the notebook's Poller or Watcher, or any with the same shape. */
export interface SweepObserver {
  readonly noticed: readonly Notice[];
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** A watching observer: it also says how many watches it opened. */
export interface SweepWatcher extends SweepObserver {
  readonly watches: number;
}

/** What a sweep runs against and with. */
export interface SweepOptions {
  /** The server's counters (`cluster.instruments.metrics`, embedded only). Reset at each size. */
  metrics: Pick<ApiMetrics, "reset" | "bytesSent" | "count">;
  writer: ChangeWriter;
  /** A namespace of the sweep's own: it grows to the largest object count and is never shrunk. */
  namespace: string;
  /** A new poller of `namespace` (not started). */
  newPoller: () => SweepObserver;
  /** A new watcher of `namespace` (not started). */
  newWatcher: () => SweepWatcher;
  /** How long the writes and the polls run per size (default 1000 ms). */
  windowMs?: number;
  /** Hot objects the writes go to, round-robin (default 10, or fewer when there are fewer objects). */
  hot?: number;
  /** Upper bound on waiting for the watchers to receive the last write (default 10 s). */
  deliveryTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Measures one {@link Size}: grows the namespace to M objects, starts N watchers (their LISTs counted apart, as a
 * one-time cost), then N pollers, sends R writes per second for one window, and reads the server's counters. The
 * watch bytes are read once every watcher has received the last write: on a busy machine events arrive late, not
 * fewer, and a count taken before they arrive would blame the watch for the machine.
 */
export async function measureCost(size: Size, options: SweepOptions): Promise<Cost> {
  const { metrics: m, writer, namespace } = options;
  const windowMs = options.windowMs ?? 1000;
  await writer.growTo(namespace, size.objects);
  m.reset();
  const watchers = Array.from({ length: size.controllers }, () => options.newWatcher());
  await Promise.all(watchers.map((w) => w.start()));
  const watchListBytes = m.bytesSent({ verb: "list", resource: "configmaps" });
  m.reset();
  const pollers = Array.from({ length: size.controllers }, () => options.newPoller());
  const started = performance.now();
  try {
    for (const p of pollers) await p.start();
    const total = Math.round((size.perSecond * windowMs) / 1000);
    const hot = Math.min(options.hot ?? 10, size.objects);
    const log = await writer.send(namespace, total, size.perSecond, hot);
    const last = log[log.length - 1]?.seq ?? -1;
    const arrived = () => watchers.every((w) => w.noticed.some((n) => n.seq >= last));
    const deadline = performance.now() + (options.deliveryTimeoutMs ?? 10_000);
    while (!arrived() && performance.now() < deadline) await sleep(25);
    await sleep(Math.max(0, windowMs - (performance.now() - started)));
    const seconds = (performance.now() - started) / 1000;
    const bytes = (verb: string) => m.bytesSent({ verb, resource: "configmaps" });
    const watchBytesTotal = bytes("watch");
    return {
      size,
      pollBytes: bytes("list") / seconds,
      watchBytes: watchBytesTotal / seconds,
      pollRequests: m.count({ verb: "list", resource: "configmaps" }) / seconds,
      watchRequests: watchers.reduce((n, w) => n + w.watches, 0),
      writes: log.length,
      watchBytesTotal,
      watchBytesPerWrite: watchBytesTotal / Math.max(1, log.length),
      watchListBytes,
      pollP50: percentile(knownLatencies(latencies(log, pollers[0]?.noticed ?? [])), 0.5),
      watchP50: percentile(knownLatencies(latencies(log, watchers[0]?.noticed ?? [])), 0.5),
    };
  } finally {
    await Promise.all(pollers.map((p) => p.stop()));
    await Promise.all(watchers.map((w) => w.stop()));
  }
}

/**
 * Measures every size in turn (sorted by object count first: the namespace only grows) and returns the costs in
 * the order measured.
 */
export async function sweep(sizes: readonly Size[], options: SweepOptions): Promise<Cost[]> {
  const ordered = [...sizes].sort((a, b) => a.objects - b.objects);
  const out: Cost[] = [];
  for (const size of ordered) out.push(await measureCost(size, options));
  return out;
}

/** The costs that vary only `key` from `base`, in increasing order of it: one axis of the sweep. */
export function along(results: readonly Cost[], base: Size, key: keyof Size): Cost[] {
  const keys = ["controllers", "objects", "perSecond"] as const;
  return results
    .filter((r) => keys.every((k) => k === key || r.size[k] === base[k]))
    .sort((a, b) => a.size[key] - b.size[key]);
}

/** A cost of {@link Cost} that a growth ratio can be taken of. */
export type GrowingCost = "pollBytes" | "watchBytes" | "watchBytesTotal" | "watchBytesPerWrite" | "writes";

/** How much `cost` grew from the first to the last of `rows` (last / first; a first of 0 counts as 1). */
export function growth(rows: readonly Cost[], cost: GrowingCost): number {
  if (rows.length === 0) return Number.NaN;
  return rows[rows.length - 1]![cost] / Math.max(1, rows[0]![cost]);
}

/** The sweep as one markdown table: a row per size, the poll and watch costs side by side. */
export function costTable(results: readonly Cost[]): string {
  const kB = (bytes: number, digits: number) => (bytes / 1000).toFixed(digits);
  return markdownTable(
    [
      "N controllers",
      "M objects",
      "R writes/s",
      "writes sent",
      "poll kB/s",
      "watch kB/s",
      "LISTs/s",
      "watches open",
      "watch one-time LIST kB",
      "poll p50 (ms)",
      "watch p50 (ms)",
    ],
    results.map((r) => [
      r.size.controllers,
      r.size.objects,
      r.size.perSecond,
      r.writes,
      kB(r.pollBytes, 1),
      kB(r.watchBytes, 1),
      r.pollRequests.toFixed(1),
      r.watchRequests,
      kB(r.watchListBytes, 1),
      r.pollP50.toFixed(0),
      r.watchP50.toFixed(1),
    ]),
  );
}
