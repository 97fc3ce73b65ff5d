/**
 * The ready-made limiters of client-go's `default_rate_limiters.go`.
 */
import { type Clock, realClock } from "../../clock/index.js";
import { BucketRateLimiter } from "./bucket-rate-limiter.js";
import { ItemExponentialFailureRateLimiter } from "./item-exponential-failure-rate-limiter.js";
import { MaxOfRateLimiter } from "./max-of-rate-limiter.js";
import type { RateLimiter } from "./rate-limiter.js";

/**
 * client-go's `DefaultControllerRateLimiter` (and controller-runtime's default up to v0.22): the maximum of a
 * per-item exponential backoff from 5 ms to 1000 s and an overall 10 qps / burst 100 token bucket.
 */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    new BucketRateLimiter<T>(10, 100, clock),
  );
}

/** client-go's `DefaultItemBasedRateLimiter`: per-item exponential backoff from 1 ms to 1000 s, no bucket. */
export function defaultItemBasedRateLimiter<T>(): RateLimiter<T> {
  return new ItemExponentialFailureRateLimiter<T>(1, 1_000_000);
}
