/**
 * LAB 04 (skeleton). A workqueue of keys with client-go's guarantees: dedup by a dirty set, one worker per key by a
 * processing set (a key re-added while held is parked and re-queued by `done`), and a rate-limited requeue with
 * per-key exponential backoff on an injected clock. Notebook 04 (sections 2 to 4) builds and measures each part.
 */
import { type Clock, realClock } from "kube-controller-workbook";

/** What `get` resolves to: a key, or `shutdown: true` once the queue is shut down and empty. */
export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions {
  /** Time source for `addRateLimited` (the grader passes a FakeClock). Default: the real clock. */
  clock?: Clock;
  /** First retry delay, ms (default 5). */
  baseDelayMs?: number;
  /** Longest retry delay, ms (default 1_000_000, i.e. 1000 s). */
  maxDelayMs?: number;
}

/** A deduplicating, rate-limited queue of keys. Keep the method signatures: the grader calls them. */
export class WorkQueue<T> {
  private readonly clock: Clock;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    // TODO: the queue (order), the dirty set, the processing set, waiting getters, failures per key.
  }

  /** Marks `key` as needing work. Already waiting: nothing happens. Held by a worker: parked until `done`. */
  add(key: T): void {
    // TODO
    void key;
  }

  /** The next key (waiting for one if needed); the caller holds it until `done`. */
  get(): Promise<GetResult<T>> {
    // TODO: hand out the head of the queue, or wait until `add` (or `shutDown`) wakes you.
    return Promise.reject(new Error("TODO: WorkQueue.get"));
  }

  /** The worker is finished with `key`; if it was added meanwhile, it is queued again. */
  done(key: T): void {
    // TODO
    void key;
  }

  /** Keys waiting to be handed out (not counting held ones). */
  len(): number {
    // TODO
    return 0;
  }

  /** Adds `key` after its backoff: base * 2^failures, at most maxDelayMs. Records one more failure. */
  addRateLimited(key: T): void {
    // TODO: count the failure, then `this.clock.setTimer(delay, () => this.add(key))`.
    void key;
    void this.clock;
  }

  /** Forgets `key`'s failures: its next `addRateLimited` waits the base delay again. */
  forget(key: T): void {
    // TODO
    void key;
  }

  /** Failures recorded for `key` since it was last forgotten. */
  numRequeues(key: T): number {
    // TODO
    void key;
    return 0;
  }

  /** Stops accepting keys, cancels pending retries and wakes every waiting `get` with `shutdown: true`. */
  shutDown(): void {
    // TODO
  }
}
