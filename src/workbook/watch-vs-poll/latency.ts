import type { Write } from "./writer.js";

/** Something an observer saw: object `name` carrying write number `seq`, at time `at` (ms, `performance.now`). */
export interface Notice {
  name: string;
  seq: number;
  at: number;
}

/**
 * Write-to-notice latency of each write: ms from sending it until `noticed` shows that object at this sequence
 * number or a later one (undefined: never). "Or later" because a poller that LISTs after two writes to one object
 * only ever sees the second, as any LIST-based observer of kube-apiserver does: a LIST returns the latest state.
 */
export function latencies(log: readonly Write[], noticed: readonly Notice[]): Array<number | undefined> {
  return log.map((w) => {
    const first = noticed.find((n) => n.name === w.name && n.seq >= w.seq);
    return first ? first.at - w.sentAt : undefined;
  });
}

/** The latencies that were measured (drops the writes never noticed). */
export function knownLatencies(values: ReadonlyArray<number | undefined>): number[] {
  return values.filter((x): x is number => x !== undefined);
}

/** The `p` quantile (0..1) of `values` by the nearest-rank rule; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/**
 * How many of the writes' versions an observer saw exactly, not just a later one: a watch delivers every
 * version (one event per resourceVersion, in order), a poller only those that happened to be current at a LIST.
 */
export function versionsSeen(log: readonly Write[], noticed: readonly Notice[]): number {
  return log.filter((w) => noticed.some((n) => n.name === w.name && n.seq === w.seq)).length;
}
