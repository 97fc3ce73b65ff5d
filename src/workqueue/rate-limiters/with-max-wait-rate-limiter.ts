/** client-go's `WithMaxWaitRateLimiter`: whatever the inner limiter says, never wait longer than `maxDelayMs`. */
import { checkNumber, type RateLimiter } from "./rate-limiter.js";

/** Clamps another limiter's delay to `maxDelayMs`. */
export class WithMaxWaitRateLimiter<T> implements RateLimiter<T> {
  constructor(
    readonly limiter: RateLimiter<T>,
    readonly maxDelayMs: number,
  ) {
    checkNumber("maxDelayMs", maxDelayMs);
  }

  when(item: T): number {
    return Math.min(this.limiter.when(item), this.maxDelayMs);
  }

  forget(item: T): void {
    this.limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }
}
