/**
 * client-go's `MaxOfRateLimiter`: asks EVERY limiter and waits for the longest answer. Because every limiter is
 * asked, a shared bucket spends a token even when a per-item backoff is the longer wait.
 */
import type { RateLimiter } from "./rate-limiter.js";

/** The maximum of several limiters' delays; requeues are the maximum too, forget reaches all of them. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  readonly limiters: ReadonlyArray<RateLimiter<T>>;

  constructor(...limiters: RateLimiter<T>[]) {
    if (limiters.length === 0) throw new RangeError("MaxOfRateLimiter needs at least one limiter");
    this.limiters = limiters;
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}
