import type { MetaObject } from "../apimachinery/object.js";
import { RingBuffer } from "../apimachinery/ring-buffer.js";
import { untilAborted } from "../apimachinery/wait/until-aborted.js";
import type { DeletedFinalStateUnknown } from "./tombstone.js";

/**
 * What an informer tells a handler (client-go's `ResourceEventHandler`). Every method is optional and may be async:
 * the next notification for the same handler waits for it, other handlers do not.
 * - `onAdd(obj, isInInitialList)`: an object appeared; `isInInitialList` is true for the objects of the first
 *   LIST (and for the snapshot a late-added handler receives);
 * - `onUpdate(oldObj, newObj)`: the real previous cached object and the new one; on a periodic resync both are the
 *   same object (same resourceVersion);
 * - `onDelete(obj)`: the last state, or a {@link DeletedFinalStateUnknown} tombstone when the DELETED event was missed.
 */
export interface ResourceEventHandler<T> {
  onAdd?(obj: T, isInInitialList: boolean): void | Promise<void>;
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void>;
}

/** One queued notification for one handler. */
export type Notification<T> =
  | { type: "add"; obj: T; isInInitialList: boolean }
  | { type: "update"; oldObj: T; newObj: T }
  | { type: "delete"; obj: T | DeletedFinalStateUnknown<T> };

/**
 * One handler's private delivery lane (client-go's `processorListener`): an unbounded FIFO buffer filled by the
 * informer and drained by this listener's own async loop, which calls the handler one notification at a time.
 *
 * Invariants:
 * - notifications reach the handler in the order they were added, one at a time (an async handler is awaited);
 * - `add` never blocks: a slow or stuck handler only grows its own buffer, never delays the informer or others;
 * - a handler exception is reported and the loop continues with the next notification;
 * - `hasSynced()` is true when the informer has synced and every `isInInitialList` add has been handled.
 */
export class ProcessorListener<T extends MetaObject = MetaObject> {
  private readonly buffer = new RingBuffer<Notification<T>>();
  private pendingInitial = 0;
  /** Resolves the run loop's wait for the next notification; set only while the loop waits on an empty buffer. */
  private wake: (() => void) | undefined;
  private nextResync = 0;
  /** The effective resync period (0: never), after the informer's adjustments. */
  resyncPeriodMs: number;

  constructor(
    readonly handler: ResourceEventHandler<T>,
    /** The period the handler asked for. */
    readonly requestedResyncPeriodMs: number,
    resyncPeriodMs: number,
    now: number,
    private readonly upstreamHasSynced: () => boolean,
    /** How the informer reports a handler failure: the error and what was being done. */
    private readonly reportError: (err: unknown, operation: string) => void,
  ) {
    this.resyncPeriodMs = resyncPeriodMs;
    this.determineNextResync(now);
  }

  /** Queues a notification; never blocks. */
  add(notification: Notification<T>): void {
    if (notification.type === "add" && notification.isInInitialList) this.pendingInitial++;
    this.buffer.push(notification);
    this.wake?.();
  }

  /** Notifications waiting for the handler. */
  pending(): number {
    return this.buffer.length;
  }

  /** True when the informer has synced and this handler has processed its whole initial list. */
  hasSynced(): boolean {
    return this.upstreamHasSynced() && this.pendingInitial === 0;
  }

  /** Whether a resync is due at `now` (never when the period is 0). */
  shouldResync(now: number): boolean {
    return this.resyncPeriodMs > 0 && now >= this.nextResync;
  }

  /** Schedules the next resync one period after `now`. */
  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriodMs;
  }

  /** Delivers notifications until `signal` aborts; resolves then, even if a handler call never returns. */
  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    // One abort listener for the whole run, not one per wait: a wait ends at the next `add` or at abort.
    const onAbort = () => this.wake?.();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      while (!signal.aborted) {
        const notification = this.buffer.shift();
        if (notification === undefined) {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          this.wake = undefined;
          continue;
        }
        try {
          const result = this.dispatch(notification);
          if (result && typeof (result as PromiseLike<void>).then === "function") {
            await untilAborted(result as PromiseLike<void>, signal);
          }
        } catch (err) {
          this.reportError(err, `event handler ${notification.type}`);
        } finally {
          if (notification.type === "add" && notification.isInInitialList) this.pendingInitial--;
        }
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  private dispatch(n: Notification<T>): void | Promise<void> {
    switch (n.type) {
      case "add":
        return this.handler.onAdd?.(n.obj, n.isInInitialList);
      case "update":
        return this.handler.onUpdate?.(n.oldObj, n.newObj);
      case "delete":
        return this.handler.onDelete?.(n.obj);
    }
  }
}
