import { realClock } from "../../clock/clock.js";
import {
  attempt,
  type Condition,
  checkDuration,
  checkInterval,
  type PollOptions,
  throwIfAborted,
} from "./poll.js";

/** Options of {@link eventually}. */
export interface EventuallyOptions extends PollOptions {
  /** How long to keep trying, ms. Default 5000. */
  timeout?: number;
}

/** Thrown when {@link eventually} runs out of time; carries the last failure and how many attempts were made. */
export class EventuallyTimeoutError extends Error {
  constructor(
    readonly description: string,
    readonly attempts: number,
    readonly lastReason: string,
    readonly timeout: number,
  ) {
    super(`${description} did not happen within ${timeout} ms (${attempts} attempts); last: ${lastReason}`);
    this.name = "EventuallyTimeoutError";
  }
}

/**
 * Polls `condition` until it passes and returns its value (Gomega's `Eventually`, the way controller tests
 * wait for a reconcile). Evaluated at once, then every `interval` ms until `timeout` ms have passed on the
 * clock; the last evaluation happens at or after the deadline, so a condition that becomes true exactly at the
 * deadline still passes. Invariant: never two evaluations at once (each awaits the previous one).
 */
export async function eventually<T>(condition: Condition<T>, options: EventuallyOptions = {}): Promise<T> {
  const clock = options.clock ?? realClock;
  const timeout = checkDuration("eventually: timeout", options.timeout ?? 5000);
  const interval = checkInterval("eventually: interval", options.interval ?? 100);
  const description = options.description ?? "the condition";
  const deadline = clock.now() + timeout;
  let attempts = 0;
  for (;;) {
    throwIfAborted(options.signal, `eventually(${description})`);
    attempts++;
    const result = await attempt(condition);
    if (result.passed) return result.value;
    const left = deadline - clock.now();
    if (left <= 0) throw new EventuallyTimeoutError(description, attempts, result.reason, timeout);
    await clock.sleep(Math.min(interval, left), options.signal);
  }
}
