/**
 * Small statistics and measuring helpers shared by the benchmark families: order statistics, the log-log
 * slope that says how a cost grows, a forced garbage collection for heap figures, and polling waits.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The p-th percentile (nearest rank) of an ascending array; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** The median of any array (it is sorted on a copy). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Ascending copy. */
export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * Least-squares slope of log10(y) against log10(x): 1 means the cost grows linearly with the size, 0 that it
 * does not grow, 2 that it grows with the square. Points with a non-positive coordinate are ignored.
 */
export function logLogSlope(xs: readonly number[], ys: readonly number[]): number {
  const pts = xs.map((x, i) => [x, ys[i] as number] as const).filter(([x, y]) => x > 0 && y > 0);
  if (pts.length < 2) return Number.NaN;
  const lx = pts.map(([x]) => Math.log10(x));
  const ly = pts.map(([, y]) => Math.log10(y));
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += ((lx[i] as number) - mx) * ((ly[i] as number) - my);
    den += ((lx[i] as number) - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

/** log10 for charts (mermaid has no log axis): non-positive values plot as 0. */
export function log10(value: number): number {
  return value > 0 ? Math.log10(value) : 0;
}

let gcFn: (() => void) | undefined;

/** Forces a full collection when the runtime lets us (flag set at runtime, `gc` fetched from a fresh context). */
export function collectGarbage(): void {
  try {
    if (!gcFn) {
      setFlagsFromString("--expose-gc");
      gcFn = runInNewContext("gc") as () => void;
    }
    gcFn();
    gcFn();
  } catch {
    // No GC available: heap figures are then upper bounds.
  }
}

/** V8 heap in use after a forced collection, in bytes. */
export function heapAfterGc(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** Wall-clock milliseconds with sub-millisecond resolution (comparable across processes on one machine). */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Resolves once `read()` reaches `target`, polling every macrotask; rejects after `timeoutMs`. */
export function untilCount(read: () => number, target: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (read() >= target) return resolve();
      if (Date.now() > deadline)
        return reject(new Error(`only ${read()} of ${target} after ${timeoutMs} ms`));
      setImmediate(check);
    };
    check();
  });
}

/** A counter that a handler ticks; `reached` resolves the moment it gets to its target. See {@link countTo}. */
export interface CountTo {
  /** Adds one (pass it as the handler itself). */
  tick: () => void;
  /** Ticks so far. */
  count(): number;
  /** Resolves when `count()` reaches the target; rejects after the timeout. */
  reached: Promise<void>;
  /** Clears the timeout (reached or not); idempotent. */
  stop(): void;
}

/**
 * Counts events and resolves at `target` from inside the tick, without polling: the event loop stays idle
 * between events, as the Go peer's goroutines sleep, so waiting costs the measured client and the server in
 * the other process no CPU (a `setImmediate` poll loop spins a core while a LIST is in flight).
 */
export function countTo(target: number, timeoutMs = 120_000): CountTo {
  let n = 0;
  let resolve: () => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  const reached = new Promise<void>((res, rej) => {
    resolve = res;
    timer = setTimeout(() => rej(new Error(`only ${n} of ${target} after ${timeoutMs} ms`)), timeoutMs);
  });
  reached.catch(() => {}); // an abandoned count must not become an unhandled rejection
  const stop = () => clearTimeout(timer);
  if (target <= 0) {
    stop();
    resolve();
  }
  return {
    tick: () => {
      if (++n === target) {
        stop();
        resolve();
      }
    },
    count: () => n,
    reached,
    stop,
  };
}

/** Formats a number for tables: 3 significant digits, thousands grouped. */
export function formatValue(value: number | null): string {
  if (typeof value !== "number") return "n/a";
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
