/**
 * The controller runner: N workers pulling keys from a {@link RateLimitingQueue} and calling a reconcile
 * function, with controller-runtime's result handling (see `result.ts`) and client-go's worker discipline.
 *
 * Flow of `run(signal)`:
 * 1. wait until every `hasSynced` function is true (polled every 100 ms, like `WaitForCacheSync`); give up with
 *    an error after `cacheSyncTimeoutMs` (controller-runtime's `CacheSyncTimeout`, 2 min);
 * 2. start `workers` loops (`MaxConcurrentReconciles`, default 1). Each loop: `get` a key, reconcile it, act
 *    on the outcome, and ALWAYS `done` the key;
 * 3. when `signal` aborts: abort the signal given to running reconciles, stop handing out keys (keys still queued
 *    are dropped: the next start re-lists and re-enqueues everything), and drain with `shutDownWithDrain`, giving
 *    up after `drainTimeoutMs` on reconciles that ignore their signal.
 *
 * Guarantees:
 * - a key is never reconciled by two workers at once, and adds that arrive while it runs collapse into ONE
 *   more reconcile (the queue's dirty/processing sets);
 * - a reconcile that throws, rejects or returns garbage never kills its worker: it becomes a rate-limited retry;
 * - a reconcile that never returns holds only its own worker: other workers keep serving other keys, and stop()
 *   still settles after `drainTimeoutMs`;
 * - after stop() settles the controller holds no timer (queue, delays, metrics and drain timers are stopped).
 *
 * Lifecycle (`src/apimachinery/lifecycle.ts`): `run(signal)` once (`start()` is run in the background and does
 * nothing the second time), `stop()` idempotent, errors to `onError(error, context)`: a failed reconcile is
 * `{ component: "controller <name>", operation: "reconcile", key, outcome }` with the outcome `error`
 * (requeued with backoff), `dropped` or `terminal_error`; shutdown problems have operation `shutdown`.
 */

import { type ErrorHandler, guardErrorHandler, type Runnable, RunOnce } from "../apimachinery/lifecycle.js";
import { type InformerSynced, waitForCacheSync } from "../cache/wait-for-cache-sync.js";
import { type Clock, realClock, type Timer } from "../clock/index.js";
import type { RateLimiter } from "../workqueue/rate-limiters/rate-limiter.js";
import { RateLimitingQueue } from "../workqueue/rate-limiting-queue.js";
import { isTerminalError, type Result } from "./result.js";

/** What a reconcile may return: a {@link Result}, or nothing (= done). `void` lets `async (key) => {}` qualify. */
// biome-ignore lint/suspicious/noConfusingVoidType: a reconcile that returns nothing must type-check.
export type ReconcileReturn = Result | undefined | void;

/** The reconcile function: bring the world in line with the object named by `key`. Level-triggered. */
export type Reconciler = (key: string, signal: AbortSignal) => Promise<ReconcileReturn> | ReconcileReturn;

/** What happened to a key after one reconcile (the `result` label of controller-runtime's reconcile_total). */
export type ReconcileOutcome =
  | "success"
  | "error"
  | "requeue"
  | "requeue_after"
  | "terminal_error"
  | "dropped";

/** Options of a {@link Controller}. */
export interface ControllerOptions {
  /** Name used for the queue's metrics and in error reports. */
  name: string;
  reconcile: Reconciler;
  /** Concurrent workers (controller-runtime's `MaxConcurrentReconciles`, default 1). */
  workers?: number;
  /** The queue to serve; default a named RateLimitingQueue with `rateLimiter` on `clock`. The controller shuts it down on stop. */
  queue?: RateLimitingQueue<string>;
  /** Limiter for the default queue (default: `defaultControllerRateLimiter`). */
  rateLimiter?: RateLimiter<string>;
  clock?: Clock;
  /** Readiness checks awaited before workers start (informers' `hasSynced`). */
  hasSynced?: ReadonlyArray<InformerSynced>;
  /** How long to wait for `hasSynced` before `run` fails (default 120 000 ms, controller-runtime's default). */
  cacheSyncTimeoutMs?: number;
  /** After this many rate-limited retries a failing key is forgotten and dropped (default: never give up). */
  maxRetries?: number;
  /** How long stop() waits for running reconciles (default 30 000 ms). */
  drainTimeoutMs?: number;
  /** Called for every failed reconcile and shutdown problem (default: one line on stderr). */
  onError?: ErrorHandler;
}

/** Counters of reconcile outcomes, for notebooks and tests (controller-runtime's `reconcile_total{result}`). */
export interface ControllerStats {
  reconciles: number;
  success: number;
  error: number;
  requeue: number;
  requeue_after: number;
  terminal_error: number;
  dropped: number;
  /** Keys popped after stop began and released without a reconcile. */
  skippedAtShutdown: number;
  /** Reconciles currently running. */
  active: number;
}

function checkResult(result: unknown): Result {
  if (result === undefined || result === null) return {};
  if (typeof result !== "object")
    throw new TypeError(`reconcile returned ${typeof result}, expected a Result`);
  const r = result as Result;
  if (r.requeueAfter !== undefined && !(Number.isFinite(r.requeueAfter) && r.requeueAfter >= 0)) {
    throw new TypeError(`reconcile returned requeueAfter=${String(r.requeueAfter)}, expected ms >= 0`);
  }
  return r;
}

/** A controller: a queue of keys, workers and a reconcile function (client-go's controller loop). */
export class Controller implements Runnable {
  /** The controller's name (its queue's metrics name). */
  readonly name: string;
  /** The queue this controller serves; event handlers `add` keys to it. */
  readonly queue: RateLimitingQueue<string>;
  /** Outcome counters. */
  readonly stats: ControllerStats = {
    reconciles: 0,
    success: 0,
    error: 0,
    requeue: 0,
    requeue_after: 0,
    terminal_error: 0,
    dropped: 0,
    skippedAtShutdown: 0,
    active: 0,
  };
  private readonly reconcile: Reconciler;
  private readonly clock: Clock;
  private readonly workers: number;
  private readonly hasSynced: ReadonlyArray<InformerSynced>;
  private readonly cacheSyncTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly drainTimeoutMs: number;
  private readonly onError: ErrorHandler;
  private readonly component: string;
  private readonly lifecycle: RunOnce;
  private readonly reconcileAbort = new AbortController();
  private stopping = false;

  constructor(options: ControllerOptions) {
    if (!options || typeof options.reconcile !== "function") {
      throw new TypeError("Controller needs a reconcile function");
    }
    if (!options.name) throw new TypeError("Controller needs a name");
    this.name = options.name;
    this.reconcile = options.reconcile;
    this.clock = options.clock ?? realClock;
    this.workers = options.workers ?? 1;
    if (!Number.isInteger(this.workers) || this.workers < 1) {
      throw new RangeError(`workers must be an integer >= 1, got ${String(options.workers)}`);
    }
    this.maxRetries = options.maxRetries ?? Number.POSITIVE_INFINITY;
    if (!(this.maxRetries >= 0)) throw new RangeError(`maxRetries must be >= 0, got ${options.maxRetries}`);
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.cacheSyncTimeoutMs = options.cacheSyncTimeoutMs ?? 120_000;
    this.hasSynced = options.hasSynced ?? [];
    this.component = `controller ${this.name}`;
    this.lifecycle = new RunOnce(this.component);
    // A throwing error callback must not kill a worker either.
    this.onError = guardErrorHandler(options.onError);
    this.queue =
      options.queue ??
      new RateLimitingQueue<string>({
        name: options.name,
        clock: this.clock,
        rateLimiter: options.rateLimiter,
      });
  }

  /** Adds `key` to the queue (what an informer event handler does). */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  /**
   * Runs until `signal` aborts (or `stop()` is called), then drains; the promise settles when everything has
   * stopped. Rejects if the caches do not sync in time. A controller runs once (its queue cannot be restarted):
   * a second call rejects with `AlreadyRunError`.
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, (until) => this.runUntil(until));
  }

  /**
   * Starts `run()` in the background (once; later calls do nothing); a failure to start (cache sync timeout)
   * goes to `onError`. See {@link Controller.stop}.
   */
  start(): void {
    if (this.lifecycle.used) return;
    this.run().catch((e) => this.report(e, "run"));
  }

  /**
   * Stops the controller and waits until it has: running reconciles see their signal abort and get at most
   * `drainTimeoutMs` to return. Idempotent; also releases the queue of a controller that never started.
   */
  async stop(): Promise<void> {
    const neverRan = !this.lifecycle.used;
    await this.lifecycle.stop();
    if (neverRan) await this.shutdown([]);
  }

  /** Reports one error as `onError(error, { component: "controller <name>", operation, key, outcome })`. */
  private report(error: unknown, operation: string, key?: string, outcome?: ReconcileOutcome): void {
    this.onError(error, {
      component: this.component,
      operation,
      ...(key === undefined ? {} : { key }),
      ...(outcome === undefined ? {} : { outcome }),
    });
  }

  private async runUntil(signal: AbortSignal): Promise<void> {
    let workers: Array<Promise<void>> = [];
    try {
      const synced = await waitForCacheSync(this.hasSynced, {
        clock: this.clock,
        signal,
        timeoutMs: this.cacheSyncTimeoutMs,
      });
      if (!synced) {
        if (signal.aborted) return;
        throw new Error(
          `controller ${this.name}: timed out after ${this.cacheSyncTimeoutMs} ms waiting for caches to sync`,
        );
      }
      workers = Array.from({ length: this.workers }, () => this.worker());
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
      });
    } finally {
      await this.shutdown(workers);
    }
  }

  private async worker(): Promise<void> {
    for (;;) {
      const next = await this.queue.get();
      if (next.shutdown) return;
      if (this.stopping) {
        this.stats.skippedAtShutdown++;
        this.queue.done(next.item);
        continue;
      }
      await this.processNextItem(next.item);
    }
  }

  // One reconcile and the queue bookkeeping around it; never throws.
  private async processNextItem(key: string): Promise<void> {
    this.stats.reconciles++;
    this.stats.active++;
    try {
      let result: Result;
      try {
        result = checkResult(await this.reconcile(key, this.reconcileAbort.signal));
      } catch (err) {
        this.handleError(key, err);
        return;
      }
      if (result.requeueAfter !== undefined && result.requeueAfter > 0) {
        this.stats.requeue_after++;
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfter);
      } else if (result.requeue) {
        this.stats.requeue++;
        this.queue.addRateLimited(key);
      } else {
        this.stats.success++;
        this.queue.forget(key);
      }
    } finally {
      this.stats.active--;
      this.queue.done(key);
    }
  }

  private handleError(key: string, err: unknown): void {
    if (isTerminalError(err)) {
      // controller-runtime does not requeue; we also forget so the limiter keeps no memory of a key we gave up on.
      this.stats.terminal_error++;
      this.queue.forget(key);
      this.report(err, "reconcile", key, "terminal_error");
    } else if (this.queue.numRequeues(key) >= this.maxRetries) {
      this.stats.dropped++;
      this.queue.forget(key);
      this.report(err, "reconcile", key, "dropped");
    } else {
      this.stats.error++;
      this.queue.addRateLimited(key);
      this.report(err, "reconcile", key, "error");
    }
  }

  private async shutdown(workers: Array<Promise<void>>): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.reconcileAbort.abort();
    const drained = Promise.all([this.queue.shutDownWithDrain(), ...workers]).then(() => true);
    let timer: Timer | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = this.clock.setTimer(this.drainTimeoutMs, () => resolve(false));
    });
    const finished = await Promise.race([drained, timedOut]);
    timer?.stop();
    this.queue.shutDown();
    if (!finished) {
      this.report(
        new Error(
          `gave up after ${this.drainTimeoutMs} ms waiting for ${this.stats.active} reconcile(s) to return`,
        ),
        "shutdown",
      );
    }
  }
}
