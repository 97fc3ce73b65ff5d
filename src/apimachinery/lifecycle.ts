/**
 * One lifecycle and one error contract for everything that runs in the background: the reflector, the shared
 * informer and its factory, the controller, the leader elector, the built-in controllers, the controller manager
 * and the simulated nodes; each declares `implements Runnable` (Go's `Run(ctx)` with an AbortSignal for the
 * context).
 *
 * The lifecycle ({@link Runnable}):
 * - `run(signal?)` starts the work and returns a promise that settles once everything it started (requests,
 *   watches, timers, loops) has stopped: after `signal` aborts, after `stop()`, or when the work ends by itself
 *   (a leader elector that lost its lease). It rejects only when the work cannot start or go on at all (a
 *   controller whose caches never synced); everything the work survives goes to `onError` instead.
 * - A runnable runs once. A second `run()`, during the first or after it, rejects with {@link AlreadyRunError};
 *   so does a `run()` after `stop()`. Build a new one to run again (a new informer relists, a new elector
 *   campaigns). A `start()`, where a class has one, is `run()` in the background and does nothing the second time
 *   (it returns the same promise, which may resolve at a readiness point: the controller manager's is "leading or
 *   standing by", the simulated nodes' is "first renewals written").
 * - `stop()` is idempotent and safe at any time (before `run`, during, after, concurrently): it stops the work
 *   and resolves once nothing of it is left running.
 *
 * The errors ({@link ErrorHandler}):
 * - every runnable takes `onError(error, context)`; `context` says which component, doing what, and (for
 *   per-object work) the key and what happens next. One default, {@link defaultErrorHandler}: one line on
 *   stderr, except routine answers (a 410 Expired that a reflector heals with a relist).
 * - a handler that throws is ignored ({@link guardErrorHandler}): reporting never takes a runnable down.
 */
import { ExpiredError } from "./errors.js";

/** Something that runs in the background: the contract above. */
export interface Runnable {
  /** Runs until `signal` aborts or {@link stop}; settles once everything it started has stopped. Once only. */
  run(signal?: AbortSignal): Promise<void>;
  /** Stops the work and waits until nothing of it is left running. Idempotent; safe before `run`. */
  stop(): Promise<void>;
}

/** Where an error happened. */
export interface ErrorContext {
  /** The reporting component and its name: `reflector configmaps`, `controller web`, `leader-elector lock`. */
  component: string;
  /** What it was doing: `list`, `watch`, `reconcile`, `renew`, `onNewLeader callback`, ... */
  operation: string;
  /** The queue key, for per-object work. */
  key?: string;
  /** What happens next, when it is worth saying: `will relist`, `requeued with backoff`, `dropped`, ... */
  outcome?: string;
}

/** The one `onError` signature of every runnable. */
export type ErrorHandler = (error: unknown, context: ErrorContext) => void;

/** One report as one line: `component: operation key: message (outcome)`. */
export function formatErrorReport(error: unknown, context: ErrorContext): string {
  const message = error instanceof Error ? error.message : String(error);
  const key = context.key === undefined ? "" : ` ${context.key}`;
  const outcome = context.outcome ? ` (${context.outcome})` : "";
  return `${context.component}: ${context.operation}${key}: ${message}${outcome}`;
}

/**
 * The default `onError` of every runnable: {@link formatErrorReport} as one line on stderr. A 410 Expired is
 * routine (the reflector relists; client-go logs it only at verbosity 4) and prints nothing.
 */
export function defaultErrorHandler(error: unknown, context: ErrorContext): void {
  if (error instanceof ExpiredError) return;
  process.stderr.write(`${formatErrorReport(error, context)}\n`);
}

/** `handler` (default {@link defaultErrorHandler}) wrapped so that a throwing handler is ignored. */
export function guardErrorHandler(handler: ErrorHandler = defaultErrorHandler): ErrorHandler {
  return (error, context) => {
    try {
      handler(error, context);
    } catch {
      // Reporting is best effort: a broken handler must not take the runnable down.
    }
  };
}

/** Rejection of a second `run()` (or a `run()` after `stop()`): a runnable runs once. */
export class AlreadyRunError extends Error {
  constructor(component: string) {
    super(`${component} can run only once: create a new one to run again`);
    this.name = "AlreadyRunError";
  }
}

/**
 * The bookkeeping of the contract, for a class to hold: `begin` claims the one run (or rejects), and a stop
 * controller aborts the run's signal from `stop()`. The run's signal aborts when the caller's signal does.
 */
export class RunOnce {
  private readonly stopper = new AbortController();
  private claimed = false;
  private finished: Promise<void> | undefined;

  constructor(private readonly component: string) {}

  /** True once `run` was called (or `stop`, which also uses up the one run). */
  get used(): boolean {
    return this.claimed;
  }

  /** Aborts when `stop()` was called or the run's caller aborted. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /**
   * Claims the one run: calls `body` with the run's signal (aborted by `signal` or `stop`) and returns its
   * promise, or rejects with {@link AlreadyRunError} when the run was already claimed.
   */
  run(signal: AbortSignal | undefined, body: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.claimed) return Promise.reject(new AlreadyRunError(this.component));
    this.claimed = true;
    if (signal) {
      const onAbort = () => this.stopper.abort();
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        this.stopper.signal.addEventListener("abort", () => signal.removeEventListener("abort", onAbort), {
          once: true,
        });
      }
    }
    this.finished = body(this.stopper.signal);
    return this.finished;
  }

  /** Stops: aborts the run's signal (using up the run if it never started) and waits for the run to settle. */
  async stop(): Promise<void> {
    this.claimed = true;
    this.stopper.abort();
    if (this.finished) await this.finished.catch(() => undefined);
  }
}
