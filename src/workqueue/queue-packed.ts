/**
 * Fast path: the basic workqueue with client-go's behaviour but a packed representation, kept for the benchmark
 * (`workbook bench workqueue` measures it beside the literal {@link Queue}). Read `queue.ts` to learn the queue:
 * it keeps client-go's `queue`, `dirty` and `processing` as three named structures; this file keeps the same
 * invariants (stated there) with fewer hash lookups.
 *
 * Representation: `dirty` and `processing` are two bits of one entry per item in a single `Map`, and `queue`
 * holds those entries, so an add, a get and a done cost one hash lookup between them instead of seven Set
 * operations. An entry that leaves both sets is kept ("idle", state 0) rather than deleted: deleting and
 * re-adding the same key on every cycle makes V8 shrink and rehash the table over and over. Idle entries are
 * swept in bulk once there are `SWEEP_AT` of them and more idle than live ones, so memory stays within a
 * constant factor of client-go's two sets. Each entry also keeps the `GetResult` handed out for it, so a `get`
 * allocates only its promise. `DelayingQueue` (and so `RateLimitingQueue`, every controller's queue) extends it.
 */

import { RingBuffer } from "../apimachinery/ring-buffer.js";
import { type Clock, realClock, type Timer } from "../clock/index.js";
import { metricsProvider, QueueMetrics } from "./metrics.js";
import type { GetResult, Queue, QueueOptions, QueueState } from "./queue.js";

const SHUTDOWN = Object.freeze({ item: undefined, shutdown: true }) as GetResult<never>;

/** Bit of an item's state: it needs processing (client-go's `dirty` set). */
const DIRTY = 1;
/** Bit of an item's state: a worker holds it between `get` and `done` (client-go's `processing` set). */
const PROCESSING = 2;
/** Idle entries tolerated before a sweep is considered (a sweep also needs more idle than live entries). */
const SWEEP_AT = 4096;

/** One item's bookkeeping: its DIRTY/PROCESSING bits and the result `get` resolves to for it. */
interface Entry<T> {
  readonly item: T;
  state: number;
  readonly result: GetResult<T>;
  /** Logical times it last became dirty and was last taken: `state()` lists each set in that order. */
  dirtiedAt: number;
  takenAt: number;
}

/** Fast path of client-go's basic workqueue (`workqueue.New`): the public surface of {@link Queue}, packed state. */
export class PackedQueue<T>
  implements
    Pick<
      Queue<T>,
      "add" | "get" | "done" | "len" | "shutDown" | "shutDownWithDrain" | "shuttingDown" | "state"
    >
{
  /** The clock this queue (and its subclasses) time things with. */
  protected readonly clock: Clock;
  /** Metrics bookkeeping; undefined for unnamed queues, which skip it entirely. */
  protected readonly metrics: QueueMetrics<T> | undefined;
  private readonly queue = new RingBuffer<Entry<T>>();
  /** Per item: DIRTY | PROCESSING bits; state 0 = idle entry kept to avoid hash-table churn (see the header). */
  private readonly entries = new Map<T, Entry<T>>();
  private processingCount = 0;
  private idleCount = 0;
  private ticks = 0;
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
    let entry = this.entries.get(item);
    if (entry === undefined) {
      entry = { item, state: DIRTY, result: { item, shutdown: false }, dirtiedAt: ++this.ticks, takenAt: 0 };
      this.entries.set(item, entry);
    } else if (entry.state & DIRTY) return;
    else {
      if (entry.state === 0) this.idleCount--;
      entry.state |= DIRTY;
      entry.dirtiedAt = ++this.ticks;
    }
    this.metrics?.add(item);
    if (entry.state & PROCESSING) return;
    this.queue.push(entry);
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
    const entry = this.entries.get(item);
    if (entry === undefined || !(entry.state & PROCESSING)) return;
    this.metrics?.done(item);
    this.processingCount--;
    if (entry.state & DIRTY) {
      entry.state = DIRTY;
      this.queue.push(entry);
      this.handOut();
    } else {
      entry.state = 0;
      if (++this.idleCount >= SWEEP_AT && this.idleCount > this.entries.size - this.idleCount) this.sweep();
    }
    if (this.processingCount === 0) this.releaseDrainWaiters();
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
    if (this.processingCount === 0) {
      this.stopMetricsTimer();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** True once `shutDown` or `shutDownWithDrain` was called. */
  shuttingDown(): boolean {
    return this.isShuttingDown;
  }

  /** Copies of the internal structures (O(n log n)), each set in the order its items entered it; for teaching and tests. */
  state(): QueueState<T> {
    const dirty: Entry<T>[] = [];
    const processing: Entry<T>[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state & DIRTY) dirty.push(entry);
      if (entry.state & PROCESSING) processing.push(entry);
    }
    dirty.sort((a, b) => a.dirtiedAt - b.dirtiedAt);
    processing.sort((a, b) => a.takenAt - b.takenAt);
    const items = (entries: Entry<T>[]) => entries.map((entry) => entry.item);
    return {
      queue: items(this.queue.toArray()),
      dirty: items(dirty),
      processing: items(processing),
      shuttingDown: this.isShuttingDown,
    };
  }

  // Pops the head into processing. Precondition: queue is not empty.
  private take(): GetResult<T> {
    const entry = this.queue.shift() as Entry<T>;
    entry.state = PROCESSING; // a queued item is dirty and not processing (the invariant above)
    entry.takenAt = ++this.ticks;
    this.processingCount++;
    this.metrics?.get(entry.item);
    return entry.result;
  }

  // Gives queued items to blocked getters, oldest getter first.
  private handOut(): void {
    while (this.waiters.length > 0 && this.queue.length > 0) {
      const resolve = this.waiters.shift()!;
      resolve(this.take());
    }
  }

  // Drops every idle entry at once; amortised over the SWEEP_AT or more `done` calls that made them idle.
  private sweep(): void {
    for (const entry of this.entries.values()) if (entry.state === 0) this.entries.delete(entry.item);
    this.idleCount = 0;
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
