/**
 * Lifecycle helpers for everything that runs in the background (Go's `Run(ctx)`): a run takes an AbortSignal
 * and returns a promise that settles once everything it started has stopped.
 */

/**
 * Adapts a start/stop component to the `run(signal)` shape: start it, wait for `signal` to abort, stop it. The
 * promise settles once it has stopped; `stop` runs even when `start` throws. Does nothing for a signal that
 * has already aborted.
 */
export async function runUntilAborted(
  signal: AbortSignal,
  start: () => void | Promise<void>,
  stop: () => Promise<void>,
): Promise<void> {
  if (signal.aborted) return;
  try {
    await start();
    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  } finally {
    await stop();
  }
}
