/**
 * Adapts a start/stop component to the `run(signal)` shape of the workbook's background loops (Go's
 * `Run(ctx)`): start it, wait for `signal` to abort, stop it; the promise settles once it has stopped.
 */
export async function untilAborted(
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
