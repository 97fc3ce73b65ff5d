/**
 * LAB 04 (solution). A workqueue of keys with client-go's guarantees: dedup by a dirty set, one worker per key by a
 * processing set (a key re-added while held is parked and re-queued by `done`), and a rate-limited requeue with
 * per-key exponential backoff on an injected clock (notebook 04, sections 2 to 4).
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

/** A deduplicating, rate-limited queue of keys. */
export class WorkQueue<T> {
  private readonly queue: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: Array<(r: GetResult<T>) => void> = [];
  private readonly failures = new Map<T, number>();
  private readonly timers = new Set<{ stop(): boolean }>();
  private readonly clock: Clock;
  private readonly base: number;
  private readonly max: number;
  private shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.base = options.baseDelayMs ?? 5;
    this.max = options.maxDelayMs ?? 1_000_000;
  }

  /** Marks `key` as needing work. Already waiting: nothing happens. Held by a worker: parked until `done`. */
  add(key: T): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.handOut();
  }

  /** The next key (waiting for one if needed); the caller holds it until `done`. */
  get(): Promise<GetResult<T>> {
    if (this.queue.length > 0) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The worker is finished with `key`; if it was added meanwhile, it is queued again. */
  done(key: T): void {
    if (!this.processing.delete(key)) return;
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.handOut();
    }
  }

  /** Keys waiting to be handed out (not counting held ones). */
  len(): number {
    return this.queue.length;
  }

  /** Adds `key` after its backoff: base * 2^failures, at most maxDelayMs. Records one more failure. */
  addRateLimited(key: T): void {
    if (this.shuttingDown) return;
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.base * 2 ** n, this.max);
    const timer = this.clock.setTimer(delay, () => {
      this.timers.delete(timer);
      // The retry is due: straight onto the queue.
      if (this.shuttingDown) return;
      this.queue.push(key);
      this.handOut();
    });
    this.timers.add(timer);
  }

  /** Forgets `key`'s failures: its next `addRateLimited` waits the base delay again. */
  forget(key: T): void {
    this.failures.delete(key);
  }

  /** Failures recorded for `key` since it was last forgotten. */
  numRequeues(key: T): number {
    return this.failures.get(key) ?? 0;
  }

  /** Stops accepting keys, cancels pending retries and wakes every waiting `get` with `shutdown: true`. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers) t.stop();
    this.timers.clear();
    for (const resolve of this.waiters.splice(0)) resolve({ item: undefined, shutdown: true });
  }

  private take(): GetResult<T> {
    const item = this.queue.shift() as T;
    this.dirty.delete(item);
    this.processing.add(item);
    return { item, shutdown: false };
  }

  private handOut(): void {
    while (this.waiters.length > 0 && this.queue.length > 0) this.waiters.shift()!(this.take());
  }
}
