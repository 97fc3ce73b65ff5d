/**
 * client-go's `DelayingInterface` (`util/workqueue/delaying_queue.go`): a {@link Queue} plus `addAfter`.
 *
 * Delayed items wait in a min-heap ordered by ready time; ONE clock timer is armed for the head of the heap, and
 * when it fires every item that is due is `add`ed (so the normal dedup applies). client-go runs a goroutine that
 * also wakes on a 10 s heartbeat; a precise timer re-armed on every change makes that unnecessary here.
 *
 * Invariants:
 * - a waiting item fires once, at the earliest ready time requested for it (later requests are ignored);
 * - waiting is independent of the queue: an item can wait while also queued or processing;
 * - the timer is armed iff the heap is non-empty, for the head's ready time;
 * - `shutDown` discards waiting items and stops the timer, so a shut-down queue holds no timers.
 */
import type { Timer } from "../clock/index.js";
import type { Queue, QueueOptions } from "./queue.js";
import { PackedQueue } from "./queue-packed.js";
import { WaitingHeap } from "./waiting-heap.js";

/**
 * A queue whose items can be added after a delay (client-go's `NewDelayingQueue`). It builds on the packed fast
 * path of the basic queue ({@link PackedQueue}, same behaviour as the literal {@link Queue} that `queue.ts` teaches):
 * the literal one fell below client-go's cycle rate on a loaded machine, and every controller runs this queue.
 */
export class DelayingQueue<T> extends PackedQueue<T> {
  private readonly waiting = new WaitingHeap<T>();
  private timer: Timer | undefined;
  private timerDue = Number.POSITIVE_INFINITY;

  constructor(options: QueueOptions = {}) {
    super(options);
  }

  /**
   * Adds `item` once `delayMs` has passed on the clock; `delayMs <= 0` adds it now. Ignored after shutdown.
   * Counts as a retry in the metrics, as in client-go.
   */
  addAfter(item: T, delayMs: number): void {
    if (Number.isNaN(delayMs))
      throw new RangeError("addAfter: delay must be a number of milliseconds, got NaN");
    if (this.shuttingDown()) return;
    this.metrics?.retry();
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    this.waiting.insert(item, this.clock.now() + delayMs);
    this.arm();
  }

  /** Number of items waiting for their delay to pass. */
  waitingLen(): number {
    return this.waiting.size;
  }

  /** The waiting items and their ready times (clock ms), earliest first. */
  waitingItems(): Array<{ item: T; readyAt: number }> {
    return this.waiting.toArray();
  }

  /** Shuts the queue down, discarding waiting items and stopping the timer. */
  override shutDown(): void {
    this.discardWaiting();
    super.shutDown();
  }

  /** Discards waiting items and stops the timer, then drains like {@link Queue.shutDownWithDrain}. */
  override shutDownWithDrain(): Promise<void> {
    this.discardWaiting();
    return super.shutDownWithDrain();
  }

  private discardWaiting(): void {
    this.waiting.clear();
    this.disarm();
  }

  // Keeps the single timer pointed at the head of the heap.
  private arm(): void {
    const head = this.waiting.peek();
    if (!head) {
      this.disarm();
      return;
    }
    if (this.timer && this.timerDue <= head.readyAt) return;
    this.disarm();
    this.timerDue = head.readyAt;
    // Any delay is fine: the clock itself re-arms timers longer than Node's 2^31-1 ms limit.
    this.timer = this.clock.setTimer(Math.max(0, head.readyAt - this.clock.now()), () => this.fire());
  }

  private disarm(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    for (let head = this.waiting.peek(); head && head.readyAt <= now; head = this.waiting.peek()) {
      this.waiting.pop();
      this.add(head.item);
    }
    this.arm();
  }
}
