/**
 * client-go's `RateLimitingInterface` (`util/workqueue/rate_limiting_queue.go`): a {@link DelayingQueue} whose
 * retries are spaced by a {@link RateLimiter}.
 *
 * The canonical worker loop (client-go's sample-controller):
 * 1. `get` an item, and always `done` it at the end;
 * 2. on success `forget` it (the limiter's memory of failures is cleared);
 * 3. on a retryable failure `addRateLimited` it (it comes back after the limiter's delay);
 * 4. optionally give up once `numRequeues` passes a maximum (then `forget` it too).
 *
 * `forget` only clears the limiter: it neither removes the item from the queue nor replaces `done`.
 */
import { DelayingQueue } from "./delaying-queue.js";
import type { QueueOptions } from "./queue.js";
import { defaultControllerRateLimiter } from "./rate-limiters/default-rate-limiters.js";
import type { RateLimiter } from "./rate-limiters/rate-limiter.js";

/** Options of a {@link RateLimitingQueue}. */
export interface RateLimitingQueueOptions<T> extends QueueOptions {
  /** Decides retry delays (default: `defaultControllerRateLimiter` on the queue's clock). */
  rateLimiter?: RateLimiter<T>;
}

/** A delaying queue with rate-limited retries (client-go's `NewRateLimitingQueue`). */
export class RateLimitingQueue<T> extends DelayingQueue<T> {
  /** The limiter that spaces this queue's retries. */
  readonly rateLimiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super(options);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
  }

  /** Adds `item` after the delay the limiter prescribes; this records one more failure for it. */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Clears the limiter's failure history for `item` (after a success). The caller still calls `done`. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** How many times `item` has been rate-limited since it was last forgotten. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
