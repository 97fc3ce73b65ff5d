import {
  isConnectionRefused,
  isExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  StatusError,
} from "../apimachinery/errors.js";
import { type ErrorHandler, guardErrorHandler, type Runnable, RunOnce } from "../apimachinery/lifecycle.js";
import type { MetaObject } from "../apimachinery/object.js";
import { type BackoffOptions, ExponentialBackoffManager } from "../apimachinery/wait/backoff.js";
import type { ListerWatcher, ListWatchEvent } from "../client/list-watch.js";
import { type Clock, realClock } from "../clock/clock.js";
import type { ReflectorStore } from "./store.js";

/** Options of {@link Reflector}. Every default is client-go's. */
export interface ReflectorOptions {
  /** Name used in error reports (default "reflector"). */
  name?: string;
  clock?: Clock;
  /** U[0,1) source for watch timeouts and backoff jitter; pass a seeded one for reproducible runs. */
  random?: () => number;
  /** Calls `store.resync()` every this many ms while watching; 0 (default) never. Local only: no API call. */
  resyncPeriodMs?: number;
  /** Asked before each periodic resync; false skips it (the informer asks its handlers). */
  shouldResync?: () => boolean;
  /** LIST page size (client-go's `WatchListPageSize`); default 500 for lists at RV "" or "0", none otherwise. */
  pageSize?: number;
  /** Lower bound of the random watch timeout, in seconds; values below 300 are ignored. Timeout is [min, 2 min). */
  minWatchTimeoutSeconds?: number;
  /** Backoff curve parameters (defaults: 0.8 s doubling to 30 s, jitter 1.0, reset after 2 min). */
  backoff?: BackoffOptions;
  /**
   * Watchdog: if a watch delivers nothing (not even a BOOKMARK) for this many ms, abort it and open a new one from
   * the last resourceVersion. 0 (default) disables it. client-go relies on HTTP/2 pings instead; client-node
   * informers have neither (kubernetes-client/javascript #364, #596).
   */
  watchIdleTimeoutMs?: number;
  /**
   * Receives every error the reflector survives (failed lists, broken watches, store exceptions), as
   * `(error, { component: "reflector <name>", operation, outcome })`. Default: one line on stderr (410s stay
   * silent). See `src/apimachinery/lifecycle.ts`.
   */
  onError?: ErrorHandler;
}

/** What the reflector is doing now: a learner can print it. */
export type ReflectorState = "idle" | "listing" | "watching" | "backoff" | "stopped";

/** Counters of what a reflector did; they only ever grow. */
export interface ReflectorStats {
  /** Completed LISTs (initial list and relists). */
  lists: number;
  /** LIST pages requested. */
  listPages: number;
  /** WATCH requests opened. */
  watches: number;
  /** Watch events handled (bookmarks included). */
  events: number;
  /** 410 Expired answers (to a watch or a list). */
  expired: number;
  /** Watches restarted by the idle watchdog. */
  watchdogRestarts: number;
  /** Errors reported to `onError`. */
  errors: number;
}

/** How one watch ended, and so what the watch loop does next. */
type WatchOutcome =
  | { kind: "normal" }
  | { kind: "idle" }
  | { kind: "retry"; error: unknown }
  | { kind: "relist"; error: unknown };

/** A watch that closes in under this time without a single event counts as a failure (client-go's rule). */
const VERY_SHORT_WATCH_MS = 1000;
const DEFAULT_PAGE_SIZE = 500;
const MIN_WATCH_TIMEOUT_S = 300;

/**
 * Keeps a store in step with the API server: LIST everything, then WATCH from the list's resourceVersion, forever.
 * Mirrors client-go's `cache.Reflector` (the classic path; 1.35+ first tries a WatchList stream, KEP-3157).
 *
 * The loop (`run`):
 * 1. LIST (paginated by 500 at RV "0"/""; a 410 on a continue page retries one full list) and `store.replace`.
 *    The RV asked is "0" the first time, the last synced RV afterwards, and "" after a 410/too-large answer.
 * 2. WATCH from that RV with a random timeout in [300, 600) s and bookmarks on; every event (bookmarks too)
 *    advances `lastSyncResourceVersion`.
 * 3. A watch that ends normally is reopened at once from the last RV: no relist, no backoff.
 * 4. A 410 Expired (or any other error) ends the cycle; after the backoff delay the reflector relists at the last
 *    RV, then at "" if that RV is gone too. 429 and connection refused retry the watch itself after a backoff.
 * 5. Every delay goes through the Clock; errors (including store exceptions) are reported, never fatal.
 *
 * Lifecycle (the workbook's one contract, `src/apimachinery/lifecycle.ts`): `run(signal)` once, `stop()`
 * idempotent, errors to `onError(error, context)`.
 */
export class Reflector<T extends MetaObject = MetaObject> implements Runnable {
  private lastSyncRV = "";
  private lastSyncRVUnavailable = false;
  private paginatedResult = false;
  private currentState: ReflectorState = "idle";
  private readonly lifecycle: RunOnce;
  private readonly component: string;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: ExponentialBackoffManager;
  private readonly onError: ErrorHandler;
  private readonly counters: ReflectorStats = {
    lists: 0,
    listPages: 0,
    watches: 0,
    events: 0,
    expired: 0,
    watchdogRestarts: 0,
    errors: 0,
  };

  constructor(
    private readonly listerWatcher: ListerWatcher<T>,
    private readonly store: ReflectorStore<T>,
    private readonly options: ReflectorOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new ExponentialBackoffManager({
      clock: this.clock,
      random: this.random,
      ...options.backoff,
    });
    this.component = options.name ? `reflector ${options.name}` : "reflector";
    this.lifecycle = new RunOnce(this.component);
    this.onError = guardErrorHandler(options.onError);
    if (options.pageSize !== undefined && !(options.pageSize >= 0)) throw new Error("pageSize must be >= 0");
  }

  /** The resourceVersion of the last LIST or watch event applied to the store ("" before the first list). */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** What the reflector is doing now. */
  state(): ReflectorState {
    return this.currentState;
  }

  /** A copy of the counters. */
  stats(): ReflectorStats {
    return { ...this.counters };
  }

  /**
   * Runs list-and-watch cycles until `signal` aborts or {@link stop}, sleeping the backoff delay between cycles.
   * Never rejects for what it survives; resolves once everything it started (requests, timers) has stopped.
   * Runs once: a second call rejects with `AlreadyRunError`.
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, async (until) => {
      try {
        await this.runLoop(until);
      } finally {
        this.currentState = "stopped";
      }
    });
  }

  /** Stops the run and waits until no request or timer of it is left. Idempotent; safe before `run`. */
  async stop(): Promise<void> {
    await this.lifecycle.stop();
    this.currentState = "stopped";
  }

  /** Reports one survived error: counts it, then `onError(error, { component, operation, outcome })`. */
  private report(error: unknown, operation: string, outcome?: string): void {
    this.counters.errors++;
    this.onError(error, { component: this.component, operation, ...(outcome ? { outcome } : {}) });
  }

  private async runLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
      } catch (err) {
        if (signal.aborted) break;
        this.report(err, "list and watch", "will relist after backoff");
      }
      if (signal.aborted) break;
      this.currentState = "backoff";
      if (!(await this.clock.sleep(this.backoff.next(), signal))) break;
    }
  }

  /** One cycle: a LIST, then watches until one fails. Resolves on expiry/failure of the watch, rejects on LIST errors. */
  async listAndWatch(signal: AbortSignal): Promise<void> {
    this.currentState = "listing";
    await this.list(signal);
    if (signal.aborted) return;
    const resync = new AbortController();
    const stopResync = () => resync.abort();
    signal.addEventListener("abort", stopResync, { once: true });
    const resyncDone = this.resyncLoop(resync.signal);
    try {
      await this.watchLoop(signal);
    } finally {
      signal.removeEventListener("abort", stopResync);
      resync.abort();
      await resyncDone;
    }
  }

  private relistResourceVersion(): string {
    if (this.lastSyncRVUnavailable) return "";
    return this.lastSyncRV === "" ? "0" : this.lastSyncRV;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const rv = this.relistResourceVersion();
    let result: { items: T[]; resourceVersion: string };
    try {
      result = await this.listAllPages(rv, signal);
    } catch (err) {
      if (signal.aborted) return;
      if (!isExpired(err) && !isTooLargeResourceVersion(err)) throw err;
      if (isExpired(err)) this.counters.expired++;
      this.lastSyncRVUnavailable = true;
      result = await this.listAllPages("", signal);
    }
    if (signal.aborted) return;
    this.lastSyncRVUnavailable = false;
    try {
      this.store.replace(result.items, result.resourceVersion);
    } catch (err) {
      this.report(err, "store replace");
    }
    this.lastSyncRV = result.resourceVersion;
    this.counters.lists++;
  }

  private pageSizeFor(rv: string): number {
    if (this.options.pageSize !== undefined) return this.options.pageSize;
    if (this.paginatedResult) return DEFAULT_PAGE_SIZE;
    return rv === "" || rv === "0" ? DEFAULT_PAGE_SIZE : 0;
  }

  /** The pager: follows `continue` tokens; a 410 on a continue page falls back to one unpaginated list at `rv`. */
  private async listAllPages(
    rv: string,
    signal: AbortSignal,
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const limit = this.pageSizeFor(rv);
    const items: T[] = [];
    this.counters.listPages++;
    let page = await this.listerWatcher.list({ resourceVersion: rv, limit: limit || undefined, signal });
    if (rv === "0" && page.metadata.continue) this.paginatedResult = true;
    for (;;) {
      for (const item of page.items) items.push(item);
      const token = page.metadata.continue;
      if (!token || signal.aborted) break;
      this.counters.listPages++;
      try {
        page = await this.listerWatcher.list({ continue: token, limit, signal });
      } catch (err) {
        if (!isExpired(err)) throw err;
        this.counters.listPages++;
        const full = await this.listerWatcher.list({ resourceVersion: rv, signal });
        return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? "" };
      }
    }
    return { items, resourceVersion: page.metadata.resourceVersion ?? "" };
  }

  private async resyncLoop(signal: AbortSignal): Promise<void> {
    const period = this.options.resyncPeriodMs ?? 0;
    if (!(period > 0)) return;
    while (await this.clock.sleep(period, signal)) {
      if (this.options.shouldResync && !this.options.shouldResync()) continue;
      try {
        this.store.resync();
      } catch (err) {
        this.report(err, "store resync");
      }
    }
  }

  private watchTimeoutSeconds(): number {
    const min = Math.max(MIN_WATCH_TIMEOUT_S, this.options.minWatchTimeoutSeconds ?? 0);
    return Math.floor(min * (1 + this.random()));
  }

  /** Watches until a watch fails in a way that needs a relist (then resolves) or `signal` aborts. */
  private async watchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.currentState = "watching";
      const outcome = await this.watchOnce(signal);
      if (signal.aborted) return;
      if (outcome.kind === "normal" || outcome.kind === "idle") continue;
      if (outcome.kind === "retry") {
        this.report(outcome.error, "watch", "will retry the watch");
        this.currentState = "backoff";
        if (!(await this.clock.sleep(this.backoff.next(), signal))) return;
        continue;
      }
      if (isExpired(outcome.error)) this.counters.expired++;
      this.report(outcome.error, "watch", "will relist");
      return;
    }
  }

  private async watchOnce(signal: AbortSignal): Promise<WatchOutcome> {
    const started = this.clock.now();
    let events = 0;
    let lastEventAt = started;
    let idle = false;
    const abort = new AbortController();
    const forward = () => abort.abort();
    signal.addEventListener("abort", forward, { once: true });
    const idleMs = this.options.watchIdleTimeoutMs ?? 0;
    let watchdog: { stop(): boolean } | undefined;
    const arm = (ms: number) => {
      watchdog = this.clock.setTimer(ms, () => {
        const quiet = this.clock.now() - lastEventAt;
        if (quiet < idleMs) return arm(idleMs - quiet);
        idle = true;
        abort.abort();
      });
    };
    if (idleMs > 0) arm(idleMs);
    const onEvent = (event: ListWatchEvent<T>) => {
      events++;
      lastEventAt = this.clock.now();
      this.handleEvent(event);
    };
    this.counters.watches++;
    let error: unknown;
    try {
      await this.listerWatcher.watch(
        {
          resourceVersion: this.lastSyncRV,
          timeoutSeconds: this.watchTimeoutSeconds(),
          allowWatchBookmarks: true,
        },
        onEvent,
        abort.signal,
      );
    } catch (err) {
      error = err;
    } finally {
      watchdog?.stop();
      signal.removeEventListener("abort", forward);
    }
    if (idle && !signal.aborted) {
      this.counters.watchdogRestarts++;
      this.report(new Error(`no watch event for ${idleMs} ms; restarting the watch`), "watchdog");
      return { kind: "idle" };
    }
    if (error !== undefined) {
      if (isTooManyRequests(error) || isConnectionRefused(error)) return { kind: "retry", error };
      if (error instanceof StatusError || isExpired(error)) return { kind: "relist", error };
      // A broken connection (reset, EOF mid-stream) is a normal end in client-go: resume from the last RV.
      this.report(error, "watch stream");
    }
    if (events === 0 && this.clock.now() - started < VERY_SHORT_WATCH_MS) {
      return { kind: "relist", error: new Error("very short watch: closed within 1 s without any event") };
    }
    return { kind: "normal" };
  }

  private handleEvent(event: ListWatchEvent<T>): void {
    this.counters.events++;
    const obj = event.object;
    const rv = obj?.metadata?.resourceVersion;
    if (!obj || typeof obj !== "object" || !obj.metadata) {
      this.report(new Error(`watch ${event.type} event without an object's metadata`), "watch event");
      return;
    }
    try {
      switch (event.type) {
        case "ADDED":
          this.store.add(obj);
          break;
        case "MODIFIED":
          this.store.update(obj);
          break;
        case "DELETED":
          this.store.delete(obj);
          break;
        case "BOOKMARK":
          if (rv) this.store.bookmark?.(rv);
          break;
      }
    } catch (err) {
      this.report(err, `store ${event.type}`);
    }
    if (rv) this.lastSyncRV = rv;
  }
}
