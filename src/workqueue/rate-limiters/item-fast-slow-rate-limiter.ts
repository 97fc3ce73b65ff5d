/**
 * client-go's `ItemFastSlowRateLimiter`: retry quickly a few times, then slowly. The attempt count is
 * incremented first; while it is <= `maxFastAttempts` the delay is `fastDelayMs`, after that `slowDelayMs`.
 */
import { checkNumber, type RateLimiter } from "./rate-limiter.js";

/** Fixed fast delay for the first `maxFastAttempts` failures of an item, fixed slow delay after that. */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private readonly attempts = new Map<T, number>();

  constructor(
    readonly fastDelayMs: number,
    readonly slowDelayMs: number,
    readonly maxFastAttempts: number,
  ) {
    checkNumber("fastDelayMs", fastDelayMs);
    checkNumber("slowDelayMs", slowDelayMs);
    checkNumber("maxFastAttempts", maxFastAttempts);
  }

  when(item: T): number {
    const n = (this.attempts.get(item) ?? 0) + 1;
    this.attempts.set(item, n);
    return n <= this.maxFastAttempts ? this.fastDelayMs : this.slowDelayMs;
  }

  forget(item: T): void {
    this.attempts.delete(item);
  }

  numRequeues(item: T): number {
    return this.attempts.get(item) ?? 0;
  }
}
