/**
 * The rate limiter contract of client-go's `util/workqueue/default_rate_limiters.go` (`TypedRateLimiter`).
 * A limiter decides how long an item must wait before it is retried; a rate-limiting queue turns that into
 * `addAfter(item, when(item))`.
 */
export interface RateLimiter<T> {
  /** Records one more failure of `item` and returns how long (ms) to wait before retrying it. */
  when(item: T): number;
  /** Clears what the limiter remembers about `item` (call after a success). Does not touch any queue. */
  forget(item: T): void;
  /** How many failures the limiter remembers for `item`. */
  numRequeues(item: T): number;
}

/** Throws a RangeError unless `value` is a finite number >= `min` (constructor argument checks). */
export function checkNumber(what: string, value: number, min = 0): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new RangeError(`${what} must be a finite number >= ${min}, got ${String(value)}`);
  }
}
