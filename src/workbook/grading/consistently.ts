import { realClock } from "../../clock/clock.js";
import {
  attempt,
  type Condition,
  checkDuration,
  checkInterval,
  type PollOptions,
  throwIfAborted,
} from "./poll.js";

/** Options of {@link consistently}. */
export interface ConsistentlyOptions extends PollOptions {
  /** How long the condition must keep passing, ms. Default 2000. */
  duration?: number;
}

/** Thrown when {@link consistently} sees the condition fail; says when (ms after the start) and why. */
export class ConsistentlyError extends Error {
  constructor(
    readonly description: string,
    readonly afterMs: number,
    readonly reason: string,
  ) {
    super(`${description} stopped holding after ${afterMs} ms: ${reason}`);
    this.name = "ConsistentlyError";
  }
}

/**
 * Checks that `condition` keeps passing for `duration` ms, polling every `interval` ms (Gomega's
 * `Consistently`): the negative checks of a lab, such as "no duplicate children for 2 s" or "no hot loop".
 * Evaluated at the start, every interval, and once more at the end of the window. Resolves with the number of
 * evaluations; rejects with {@link ConsistentlyError} at the first failure.
 */
export async function consistently<T>(
  condition: Condition<T>,
  options: ConsistentlyOptions = {},
): Promise<number> {
  const clock = options.clock ?? realClock;
  const duration = checkDuration("consistently: duration", options.duration ?? 2000);
  const interval = checkInterval("consistently: interval", options.interval ?? 100);
  const description = options.description ?? "the condition";
  const start = clock.now();
  let evaluations = 0;
  for (;;) {
    throwIfAborted(options.signal, `consistently(${description})`);
    evaluations++;
    const result = await attempt(condition);
    const elapsed = clock.now() - start;
    if (!result.passed) throw new ConsistentlyError(description, elapsed, result.reason);
    if (elapsed >= duration) return evaluations;
    await clock.sleep(Math.min(interval, duration - elapsed), options.signal);
  }
}
