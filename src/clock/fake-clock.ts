import { type Clock, sleepOn, type Timer } from "./clock.js";

interface PendingTimer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
  cancelled: boolean;
}

/** Lets queued promise continuations run, so code awakened by a timer can react before time moves on. */
export async function flushMicrotasks(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A manual clock for tests and notebooks. Time stands still until {@link FakeClock.advance} moves it; timers
 * fire in due order (ties in creation order) and each firing is followed by a microtask flush, so async
 * loops woken by a timer run before the next timer fires. Mirrors `k8s.io/utils/clock/testing.FakeClock`
 * (`Step`, `HasWaiters`).
 *
 * Safe against a forgotten `await`: `advance` and `step` are queued and run one after another, in call order.
 * Two advances started without awaiting the first move time by the sum of both, never backwards, and every
 * timer fires exactly once, at its due time. A missing `await` therefore cannot corrupt the timeline; it only
 * means the caller looks before the time has moved. {@link FakeClock.idle} waits until every queued advance has
 * finished, and {@link FakeClock.advancing} tells whether one is still running.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 0;
  private timers: PendingTimer[] = [];
  /** The tail of the queue of advances and steps: each runs after the previous one has settled. */
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;

  /** @param start initial time in milliseconds since the epoch (default 2026-01-01T00:00:00Z). */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, callback: () => void): Timer {
    const timer: PendingTimer = {
      id: this.nextId++,
      due: this.current + Math.max(0, ms),
      callback,
      cancelled: false,
    };
    this.timers.push(timer);
    return {
      stop: () => {
        if (timer.cancelled || !this.timers.includes(timer)) return false;
        timer.cancelled = true;
        this.timers = this.timers.filter((t) => t !== timer);
        return true;
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return sleepOn(this, ms, signal);
  }

  /** Number of timers waiting to fire (client-go's `HasWaiters`, as a count). */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** Due time of the earliest pending timer, or undefined when none waits. */
  nextDue(): number | undefined {
    let min: number | undefined;
    for (const t of this.timers) if (min === undefined || t.due < min) min = t.due;
    return min;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way (including timers created by
   * callbacks, if they fall inside the window), and letting async work settle after each one. Queued behind any
   * advance or step still running: the window starts where the previous one ended.
   */
  advance(ms: number): Promise<void> {
    return this.enqueue(() => this.advanceNow(ms));
  }

  /** Moves time to the next pending timer and fires it (and any others due at that instant). Queued like advance. */
  step(): Promise<boolean> {
    let stepped = false;
    return this.enqueue(async () => {
      const due = this.nextDue();
      if (due === undefined) return;
      stepped = true;
      await this.advanceNow(due - this.current);
    }).then(() => stepped);
  }

  /** True while an advance or step is queued or running (someone did not await it yet). */
  get advancing(): boolean {
    return this.queued > 0;
  }

  /** Resolves once every advance and step queued so far has finished. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(run: () => Promise<void>): Promise<void> {
    this.queued++;
    const next = this.queue.then(run).finally(() => {
      this.queued--;
    });
    // The queue goes on after a failure; the caller of this advance still sees it.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async advanceNow(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    await flushMicrotasks();
    for (;;) {
      const next = this.popDue(target);
      if (!next) break;
      this.current = Math.max(this.current, next.due);
      next.callback();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  private popDue(target: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers) {
      if (t.due > target) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    }
    if (best) this.timers = this.timers.filter((t) => t !== best);
    return best;
  }
}
