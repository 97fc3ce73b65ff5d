/**
 * The polling core shared by {@link eventually} and {@link consistently}: a condition is one call of a
 * function that PASSES when it returns (or resolves to) anything but `false`, and FAILS when it throws, rejects
 * or returns `false`. Labs grade outcomes this way: observed state, polled with a deadline.
 */
import type { Clock } from "../../clock/clock.js";

/** A condition to poll. */
export type Condition<T> = () => T | false | Promise<T | false>;

/** One evaluation of a condition: passed with its value, or failed with why. */
export type Attempt<T> = { passed: true; value: T } | { passed: false; reason: string };

/** Evaluates `condition` once, turning throws, rejections and `false` into a failed {@link Attempt}. */
export async function attempt<T>(condition: Condition<T>): Promise<Attempt<T>> {
  try {
    const value = await condition();
    if (value === false) return { passed: false, reason: "the condition returned false" };
    return { passed: true, value };
  } catch (err) {
    return { passed: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Options common to both pollers. */
export interface PollOptions {
  /** Time between evaluations, ms. Default 100. */
  interval?: number;
  /** Time source (default: the real clock); a FakeClock makes polling deterministic in tests. */
  clock?: Clock;
  /** What is being waited for, used in the error message. */
  description?: string;
  /** Stops polling early; the poller then rejects with the abort reason. */
  signal?: AbortSignal;
}

/** Rejects with the abort reason when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new Error(`${what}: aborted`);
}

/** Validates a duration option: finite and not negative. */
export function checkDuration(name: string, ms: number): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`${name} must be a finite number of ms >= 0, got ${ms}`);
  return ms;
}

/** Validates a polling interval: finite and positive (0 would spin without letting time pass). */
export function checkInterval(name: string, ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0)
    throw new Error(`${name} must be a finite number of ms > 0, got ${ms}`);
  return ms;
}
