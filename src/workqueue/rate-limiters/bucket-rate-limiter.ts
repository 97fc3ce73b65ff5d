/**
 * client-go's `BucketRateLimiter`: one token bucket shared by ALL items (`golang.org/x/time/rate` `Limiter`,
 * asked for `Reserve().Delay()`). The bucket starts full with `burst` tokens and refills at `qps` tokens per
 * second up to `burst`. Every `when` takes a token; when none is left the reservation still succeeds and the
 * bucket goes into debt, so the caller waits until the refill has paid it back: the 200th of 200 failures at one
 * instant on a 10 qps / burst 100 bucket waits (200 - 100) / 10 = 10 s.
 */
import { type Clock, realClock } from "../../clock/index.js";
import { checkNumber, type RateLimiter } from "./rate-limiter.js";

/** Token bucket (`qps`, `burst`) whose tokens can go negative (debt); time comes from the Clock. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  // Invariant: tokens <= burst; tokens < 0 is debt that the next callers wait out. `last` is when tokens was true.
  private tokens: number;
  private last: number;
  private readonly clock: Clock;

  constructor(
    readonly qps: number,
    readonly burst: number,
    clock: Clock = realClock,
  ) {
    if (!(qps > 0)) throw new RangeError(`qps must be > 0 (Infinity means unlimited), got ${String(qps)}`);
    checkNumber("burst", burst, 1);
    this.clock = clock;
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    if (this.qps === Number.POSITIVE_INFINITY) return 0;
    const now = this.clock.now();
    // x/time/rate refills from the elapsed time; a clock that went backwards refills nothing.
    const elapsed = Math.max(0, now - this.last);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.qps);
    this.last = Math.max(this.last, now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** No-op: the bucket is shared, it remembers nothing per item. */
  forget(_item: T): void {}

  /** Always 0: the bucket does not count per item. */
  numRequeues(_item: T): number {
    return 0;
  }
}
