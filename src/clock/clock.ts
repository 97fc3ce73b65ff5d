/**
 * The one clock every timer in the workbook goes through: backoff, delayed queues, resync, lease renewals and
 * watch timeouts. Production code uses {@link RealClock}; tests and notebooks swap in a `FakeClock` so a
 * 1000 s backoff curve or a lease failover runs in milliseconds, deterministically. Mirrors
 * `k8s.io/utils/clock` (`Clock`, `RealClock`, `FakeClock`) that client-go threads through its workqueue and
 * leader election.
 */

/** A scheduled callback that can be cancelled before it fires. */
export interface Timer {
  /** Cancels the timer. Returns true if it had not fired yet. */
  stop(): boolean;
}

/** Time source plus timers. All durations are milliseconds; `now()` is milliseconds since the Unix epoch. */
export interface Clock {
  /** Current time in milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds (0 or less: as soon as possible). */
  setTimer(ms: number, callback: () => void): Timer;
  /**
   * Waits `ms` milliseconds. Resolves `true` when the time elapsed and `false` when `signal` aborted first,
   * so loops read `if (!(await clock.sleep(d, signal))) return;` (Go's `select` on a timer and `ctx.Done()`).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

/** Shared implementation of `sleep` on top of `setTimer`, used by both clocks. */
export function sleepOn(clock: Pick<Clock, "setTimer">, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      timer.stop();
      resolve(false);
    };
    const timer = clock.setTimer(ms, () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The longest delay Node's `setTimeout` honours (2^31-1 ms, about 24.8 days). */
export const MAX_NODE_TIMER_MS = 2 ** 31 - 1;

/** The wall clock, backed by `Date.now()` and Node's timers. */
export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimer(ms: number, callback: () => void): Timer {
    let fired = false;
    let handle: ReturnType<typeof setTimeout>;
    const due = Date.now() + Math.max(0, ms);
    // Node fires any delay above 2^31-1 ms after 1 ms; long timers are re-armed in steps until they are due.
    const arm = (delay: number) => {
      handle = setTimeout(
        () => {
          const left = due - Date.now();
          if (left > 0 && delay === MAX_NODE_TIMER_MS) {
            arm(Math.min(left, MAX_NODE_TIMER_MS));
            return;
          }
          fired = true;
          callback();
        },
        Math.min(delay, MAX_NODE_TIMER_MS),
      );
    };
    arm(Math.max(0, ms));
    return {
      stop: () => {
        clearTimeout(handle);
        const wasPending = !fired;
        fired = true;
        return wasPending;
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return sleepOn(this, ms, signal);
  }
}

/** The process-wide real clock: the default wherever a `clock` option is not given. */
export const realClock: Clock = new RealClock();
