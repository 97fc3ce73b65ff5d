/**
 * client-go's `ItemExponentialFailureRateLimiter`: per-item exponential backoff, `base * 2^n` where `n` is the
 * number of failures recorded BEFORE this one, capped at `max`. With the controller defaults (5 ms, 1000 s) the
 * sequence is 5 ms, 10 ms, 20 ms ... 655.36 s and then 1000 s from the 19th consecutive failure on.
 */
import { checkNumber, type RateLimiter } from "./rate-limiter.js";

/** Exponential per-item backoff between `baseDelayMs` and `maxDelayMs`. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  // Invariant: an item is present iff it has failed since it was last forgotten; the value is its failure count.
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {
    checkNumber("baseDelayMs", baseDelayMs);
    checkNumber("maxDelayMs", maxDelayMs);
  }

  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const backoff = this.baseDelayMs * 2 ** n;
    // 2 ** n becomes Infinity past n = 1023: the overflow guard client-go has for int64 nanoseconds.
    if (!Number.isFinite(backoff) || backoff > this.maxDelayMs) return this.maxDelayMs;
    return backoff;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}
