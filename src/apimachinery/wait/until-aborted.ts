/**
 * Abortable waits for async loops that must stop promptly (apimachinery's `wait` package, with an AbortSignal
 * for Go's context). Every wait also ends when the loop's signal aborts, and removes its abort listener
 * afterwards, so a long-lived signal does not collect listeners.
 */

/**
 * Waits for `promise`, or for `signal` to abort, whichever comes first (Go's `select` on a result channel and
 * `ctx.Done()`). Resolves with the promise's value, or with `undefined` when the signal aborted first (the
 * promise is abandoned, and a later rejection of it is swallowed). Rejects when the promise rejects first.
 */
export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    promise.then(undefined, () => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/** Resolves once `signal` aborts (at once if it already has): the "wait for ctx.Done()" of a run. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** A one-shot wake-up: `wait` resolves at the next `notify` (or abort); `notify` with no waiter does nothing. */
export class Wakeup {
  private waiter: (() => void) | undefined;

  /** Resolves at the next {@link notify}, or at once when `signal` is (or becomes) aborted. */
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

  /** Wakes the current waiter, if any. */
  notify(): void {
    this.waiter?.();
  }
}
