/**
 * The basic workqueue: client-go's `util/workqueue` `Typed[T]` (queue.go), with `Get` as a promise.
 *
 * Three structures do the work, named as in client-go:
 * - `queue`: the FIFO order in which items will be handed out;
 * - `dirty`: every item that needs processing;
 * - `processing`: every item a worker currently holds (between `get` and `done`).
 *
 * Invariants (as client-go keeps them):
 * - every item in `queue` is also in `dirty` and is NOT in `processing`, and it is in `queue` at most once;
 * - an item is in `processing` at most once, so the same item is never handed to two workers at once;
 * - `add` of an item already in `dirty` is a no-op (the dedup);
 * - an item may be in `dirty` and `processing` at once: it was re-added while a worker held it. It is "parked"
 *   (not queued) and pushed onto `queue` when that worker calls `done`, so N adds while it is processed
 *   collapse into one more run;
 * - callers blocked in `get` exist only while `queue` is empty.
 *
 * Shutdown: `shutDown` refuses further adds and wakes blocked getters; items still queued are handed out until
 * `queue` is empty, then `get` answers `shutdown: true`. `shutDownWithDrain` does the same and settles once
 * `processing` is empty (workers must keep calling `done`).
 *
 * Items are compared with `===` (Set semantics), so use strings such as `namespace/name` keys, not objects.
 * A JavaScript `Set` iterates in insertion order, so `state()` lists each set in the order its items entered it.
 */

import { RingBuffer } from "../apimachinery/ring-buffer.js";
import { type Clock, realClock, type Timer } from "../clock/index.js";
import { type MetricsProvider, metricsProvider, QueueMetrics } from "./metrics.js";

/** What `get` resolves to: an item to process, or `shutdown: true` once the queue is shut down and empty. */
export type GetResult<T> =
  | { readonly item: T; readonly shutdown: false }
  | { readonly item: undefined; readonly shutdown: true };

/** Options shared by every queue in the family. */
export interface QueueOptions {
  /** Queue name; only named queues record metrics (as in client-go). */
  name?: string;
  /** Time source for metrics and delays (default: the real clock). */
  clock?: Clock;
  /** Where a named queue's metrics go (default: the global provider, see `setMetricsProvider`). */
  metricsProvider?: MetricsProvider;
  /** How often a named queue refreshes its unfinished-work gauges (default 500 ms, as client-go). */
  unfinishedWorkUpdatePeriodMs?: number;
}

const SHUTDOWN = Object.freeze({ item: undefined, shutdown: true }) as GetResult<never>;

/** A snapshot of the three internal structures, for notebooks and tests. */
export interface QueueState<T> {
  queue: T[];
  dirty: T[];
  processing: T[];
  shuttingDown: boolean;
}

/** client-go's basic workqueue (`workqueue.New`): dedup by dirty set, one worker per item, FIFO by first add. */
export class Queue<T> {
  /** The clock this queue (and its subclasses) time things with. */
  protected readonly clock: Clock;
  /** Metrics bookkeeping; undefined for unnamed queues, which skip it entirely. */
  protected readonly metrics: QueueMetrics<T> | undefined;
  /** The order items are handed out in. Invariant: each item here is in `dirty` and not in `processing`. */
  private readonly queue = new RingBuffer<T>();
  /** Items that need processing. Invariant: a superset of `queue`; may also hold items in `processing`. */
  private readonly dirty = new Set<T>();
  /** Items a worker holds between `get` and `done`. Invariant: disjoint from `queue`. */
  private readonly processing = new Set<T>();
  /** Callers blocked in `get`, oldest first. Invariant: non-empty only while `queue` is empty. */
  private readonly waiters = new RingBuffer<(result: GetResult<T>) => void>();
  private isShuttingDown = false;
  private drainWaiters: Array<() => void> = [];
  private metricsTimer: Timer | undefined;

  constructor(options: QueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    if (options.name) {
      const provider = options.metricsProvider ?? metricsProvider();
      this.metrics = new QueueMetrics<T>(options.name, provider, () => this.clock.now());
      const period = options.unfinishedWorkUpdatePeriodMs ?? 500;
      if (!(period > 0)) throw new RangeError(`unfinishedWorkUpdatePeriodMs must be > 0, got ${period}`);
      this.scheduleMetricsUpdate(period);
    }
  }

  /**
   * Marks `item` as needing processing. Ignored after shutdown. An item already dirty is not added twice (the
   * dedup); an item being processed is parked in dirty and re-queued by `done`.
   */
  add(item: T): void {
    if (this.isShuttingDown) return;
    if (this.dirty.has(item)) return;
    this.metrics?.add(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return; // parked: `done` queues it
    this.queue.push(item);
    this.handOut();
  }

  /**
   * Waits for the next item and marks it as processing; the caller must call `done(item)` when finished.
   * After shutdown, items still queued are returned until the queue is empty; then it resolves `shutdown: true`.
   */
  get(): Promise<GetResult<T>> {
    if (this.queue.length > 0) return Promise.resolve(this.take());
    if (this.isShuttingDown) return Promise.resolve(SHUTDOWN);
    return new Promise<GetResult<T>>((resolve) => this.waiters.push(resolve));
  }

  /**
   * Tells the queue the worker is finished with `item`. If it was re-added meanwhile it is queued again.
   * Calling `done` for an item that is not being processed is ignored (client-go would re-queue a duplicate).
   */
  done(item: T): void {
    if (!this.processing.delete(item)) return;
    this.metrics?.done(item);
    if (this.dirty.has(item)) {
      this.queue.push(item);
      this.handOut();
    }
    if (this.processing.size === 0) this.releaseDrainWaiters();
  }

  /** Number of items waiting to be handed out (not counting those being processed, as in client-go). */
  len(): number {
    return this.queue.length;
  }

  /**
   * Stops accepting adds. Workers blocked in `get` wake with `shutdown: true`; queued items are still handed
   * out until the queue is empty. Also cuts short a pending `shutDownWithDrain`. Idempotent.
   */
  shutDown(): void {
    this.isShuttingDown = true;
    this.releaseDrainWaiters();
    this.wakeAllWaiters();
    this.stopMetricsTimer();
  }

  /**
   * Like `shutDown`, but the returned promise settles only when no item is being processed (or when `shutDown`
   * is called). It waits on the processing set, not on the queue: workers must keep calling `done`.
   */
  shutDownWithDrain(): Promise<void> {
    this.isShuttingDown = true;
    this.wakeAllWaiters();
    if (this.processing.size === 0) {
      this.stopMetricsTimer();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** True once `shutDown` or `shutDownWithDrain` was called. */
  shuttingDown(): boolean {
    return this.isShuttingDown;
  }

  /** Copies of the internal structures, each set in the order its items entered it; for teaching and tests. */
  state(): QueueState<T> {
    return {
      queue: this.queue.toArray(),
      dirty: [...this.dirty],
      processing: [...this.processing],
      shuttingDown: this.isShuttingDown,
    };
  }

  // Pops the head of `queue` into `processing` and out of `dirty`. Precondition: `queue` is not empty.
  private take(): GetResult<T> {
    const item = this.queue.shift() as T;
    this.metrics?.get(item);
    this.processing.add(item);
    this.dirty.delete(item);
    return { item, shutdown: false };
  }

  // Gives queued items to blocked getters, oldest getter first.
  private handOut(): void {
    while (this.waiters.length > 0 && this.queue.length > 0) {
      const resolve = this.waiters.shift()!;
      resolve(this.take());
    }
  }

  private wakeAllWaiters(): void {
    // Waiters exist only while the queue is empty, so each of them learns about the shutdown.
    while (this.waiters.length > 0) this.waiters.shift()!(SHUTDOWN);
  }

  private releaseDrainWaiters(): void {
    if (this.drainWaiters.length === 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    this.stopMetricsTimer();
    for (const resolve of waiters) resolve();
  }

  private scheduleMetricsUpdate(period: number): void {
    this.metricsTimer = this.clock.setTimer(period, () => {
      this.metrics?.updateUnfinishedWork();
      if (this.metricsTimer) this.scheduleMetricsUpdate(period);
    });
  }

  private stopMetricsTimer(): void {
    this.metricsTimer?.stop();
    this.metricsTimer = undefined;
    this.metrics?.updateUnfinishedWork();
  }
}
