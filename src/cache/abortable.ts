/**
 * Waiting helpers for async loops that must stop promptly: every wait also ends when the loop's AbortSignal fires,
 * and removes its abort listener afterwards (so long-lived signals do not collect listeners).
 */

/** Resolves when `promise` settles or `signal` aborts (whichever is first); rejects if `promise` rejects first. */
export function untilAborted(promise: PromiseLike<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/** A one-shot wake-up: `wait` resolves at the next `notify` (or abort); `notify` with no waiter does nothing. */
export class Wakeup {
  private waiter: (() => void) | undefined;

  wait(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener("abort", done);
        if (this.waiter === done) this.waiter = undefined;
        resolve();
      };
      this.waiter = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }

  notify(): void {
    this.waiter?.();
  }
}
