/**
 * What a reconcile returns, mirroring controller-runtime's `reconcile.Result` and `reconcile.TerminalError`
 * (`pkg/reconcile/reconcile.go`), and how the controller treats each outcome
 * (`pkg/internal/controller/controller.go` `reconcileHandler`):
 *
 * | outcome                          | queue action                                   |
 * |----------------------------------|------------------------------------------------|
 * | throws / rejects (not terminal)  | `addRateLimited` (no `forget`: backoff grows)   |
 * | throws a {@link TerminalError}   | no requeue                                     |
 * | `{ requeueAfter: ms }` (ms > 0)  | `forget`, then `addAfter(ms)` (not rate-limited)|
 * | `{ requeue: true }`              | `addRateLimited`                               |
 * | nothing / `{}`                   | `forget`                                       |
 */

/** The result of one reconcile. `undefined` (returning nothing) means done. */
export interface Result {
  /** Retry through the rate limiter (controller-runtime's deprecated `Requeue: true`). */
  requeue?: boolean;
  /** Run again after this many milliseconds, independently of the rate limiter; resets the backoff. */
  requeueAfter?: number;
}

/** Builders that read like the outcome they ask for: `return Result.requeueAfter(30_000)`. */
export const Result = {
  /** Success: forget the key's failures; it runs again only when something enqueues it. */
  done(): Result {
    return {};
  },
  /** Retry through the rate limiter, as if it had failed, without an error. */
  requeue(): Result {
    return { requeue: true };
  },
  /** Run again in `ms` milliseconds (periodic checks, waiting on something external). */
  requeueAfter(ms: number): Result {
    return { requeueAfter: ms };
  },
};

/**
 * An error that retrying cannot fix (bad spec, forbidden, ...): the controller records it and does NOT requeue
 * the key. Mirrors controller-runtime's `reconcile.TerminalError(err)`.
 */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

/** True if `err` is a {@link TerminalError} or wraps one in its `cause` chain (Go's `errors.Is`). */
export function isTerminalError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 32; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}
