import { type ErrorHandler, guardErrorHandler, type Runnable, RunOnce } from "../apimachinery/lifecycle.js";
import { type MetaObject, resourceVersionOf } from "../apimachinery/object.js";
import type { ListerWatcher } from "../client/list-watch.js";
import { type Clock, realClock } from "../clock/clock.js";
import { type Delta, DeltaFIFO } from "./delta-fifo.js";
import type { Indexers } from "./index-funcs.js";
import { Indexer, type ReadonlyIndexer } from "./indexer.js";
import { type Notification, ProcessorListener, type ResourceEventHandler } from "./processor-listener.js";
import { Reflector, type ReflectorOptions, type ReflectorStats } from "./reflector.js";
import { deletionHandlingMetaNamespaceKeyFunc } from "./tombstone.js";
import { type WaitForCacheSyncOptions, waitForCacheSync } from "./wait-for-cache-sync.js";

/** Shortest resync period a handler can get (client-go's `minimumResyncPeriod`). */
export const MINIMUM_RESYNC_PERIOD_MS = 1000;

/** Keys processed per turn of the event loop before the pop loop yields to I/O and handler loops. */
const POP_BATCH = 1000;

/** Options of {@link SharedIndexInformer}. */
export interface SharedIndexInformerOptions<T> {
  /** Default handler resync period and the resync check period; 0 (default) means never resync. */
  resyncPeriodMs?: number;
  /** Extra indices (the namespace index is always there). */
  indexers?: Indexers<T>;
  /** Name in error reports, e.g. "configmaps". */
  name?: string;
  clock?: Clock;
  /** U[0,1) source for watch timeouts and backoff jitter. */
  random?: () => number;
  /**
   * Receives every error the informer survives: reflector failures (component `reflector <name>`), handler
   * exceptions and cache errors (component `informer <name>`). Default: one line on stderr.
   */
  onError?: ErrorHandler;
  /** Reflector tuning (page size, watchdog, minimum watch timeout, backoff). */
  reflector?: Pick<
    ReflectorOptions,
    "pageSize" | "watchIdleTimeoutMs" | "minWatchTimeoutSeconds" | "backoff"
  >;
}

/** Handle returned by `addEventHandler` (client-go's `ResourceEventHandlerRegistration`). */
export interface ResourceEventHandlerRegistration {
  /** True when the informer has synced and this handler has processed every object of its initial list. */
  hasSynced(): boolean;
  /**
   * Notifications waiting in this handler's own buffer (client-go keeps this buffer private; the workbook shows
   * it so a notebook can draw how far a slow handler lags). 0 once the handler has caught up.
   */
  pending(): number;
}

/** Per-listener bookkeeping: due for resync now?, and its running loop. */
interface ListenerEntry {
  syncing: boolean;
  stop?: AbortController;
  loop?: Promise<void>;
}

/** A client-go resync period rule: 0 stays 0, an informer without resync never resyncs, else at least the check period. */
function determineResyncPeriod(desiredMs: number, checkMs: number): number {
  if (desiredMs === 0 || checkMs === 0) return 0;
  return Math.max(desiredMs, checkMs);
}

/**
 * One LIST+WATCH per resource shared by any number of handlers, with an indexed cache. Mirrors client-go's
 * `sharedIndexInformer` with the classic DeltaFIFO queue (1.33+ use RealFIFO, `InOrderInformers`).
 *
 * Data path: Reflector -> DeltaFIFO -> pop loop -> (1) update the Indexer, (2) notify every handler's own buffer.
 * Guarantees:
 * - notifications go out after the cache update, so a handler reading the cache sees at least that state;
 * - each handler has its own unbounded buffer and async loop: a slow, stuck or throwing handler never blocks the
 *   cache or the other handlers (client-go's re-panicking crash handler would kill the process instead);
 * - `onUpdate(old, new)` gets the real previously cached object; same-resourceVersion updates (resyncs, unchanged
 *   objects in a relist) only go to handlers whose resync is due;
 * - a handler added after start first gets every cached object as `onAdd(obj, true)`, then live events;
 * - `hasSynced()` turns true once the first LIST has been fully processed into the cache.
 *
 * Lifecycle (`src/apimachinery/lifecycle.ts`): `run(signal)` once (`start()` is run in the background and does
 * nothing the second time), `stop()` idempotent, errors to `onError(error, context)`.
 */
export class SharedIndexInformer<T extends MetaObject = MetaObject> implements Runnable {
  private readonly indexer: Indexer<T>;
  private readonly clock: Clock;
  private readonly onError: ErrorHandler;
  private readonly component: string;
  private readonly listeners = new Map<ProcessorListener<T>, ListenerEntry>();
  private readonly registrations = new Map<ResourceEventHandlerRegistration, ProcessorListener<T>>();
  private readonly defaultResyncMs: number;
  private resyncCheckPeriodMs: number;
  private transform: ((obj: T) => T) | undefined;
  private fifo: DeltaFIFO<T> | undefined;
  private reflector: Reflector<T> | undefined;
  private readonly lifecycle: RunOnce;
  private started = false;
  private stopped = false;

  constructor(
    private readonly listerWatcher: ListerWatcher<T>,
    private readonly options: SharedIndexInformerOptions<T> = {},
  ) {
    const resync = options.resyncPeriodMs ?? 0;
    if (!(resync >= 0)) throw new Error(`resyncPeriodMs must be >= 0, got ${resync}`);
    this.defaultResyncMs = resync;
    this.resyncCheckPeriodMs = resync;
    this.clock = options.clock ?? realClock;
    this.indexer = new Indexer<T>(deletionHandlingMetaNamespaceKeyFunc, options.indexers ?? {});
    this.component = options.name ? `informer ${options.name}` : "informer";
    this.lifecycle = new RunOnce(this.component);
    this.onError = guardErrorHandler(options.onError);
  }

  /**
   * The informer's cache, read-only (client-go's `GetIndexer`). What it promises is client-go's contract:
   * - it lags the server and may be stale: a read can miss a recent write, and an object deleted on the server
   *   may still be there until its DELETE event arrives;
   * - handlers see a subsequence of each object's states, not every state: updates can be coalesced or missed
   *   across a relist, so in `onUpdate` compare `metadata.uid` (a re-created object) and
   *   `metadata.resourceVersion` (a resync re-delivers the same one) rather than assume one event per write;
   * - the objects are shared with every reader: never mutate them (copy first).
   */
  getIndexer(): ReadonlyIndexer<T> {
    return this.indexer;
  }

  /** Same as {@link getIndexer}: client-go's `GetStore`. */
  getStore(): ReadonlyIndexer<T> {
    return this.indexer;
  }

  /** Adds indices, back-filled from the current cache. */
  addIndexers(indexers: Indexers<T>): void {
    this.indexer.addIndexers(indexers);
  }

  /**
   * Sets a function applied once to every object entering the queue, before the cache and handlers see it (strip
   * managedFields to save memory, for instance). It must be idempotent. Only before start, as in client-go.
   */
  setTransform(transform: (obj: T) => T): void {
    if (this.started) throw new Error("setTransform must be called before the informer starts");
    this.transform = transform;
  }

  /**
   * Registers a handler with its own resync period (default: the informer's). Periods below 1 s are raised to 1 s;
   * an informer created with resync 0 never resyncs. After start, the handler first receives every cached object.
   * Throws once the informer has stopped.
   */
  addEventHandler(
    handler: ResourceEventHandler<T>,
    resyncPeriodMs?: number,
  ): ResourceEventHandlerRegistration {
    if (this.stopped) throw new Error("handler cannot be added: the informer has stopped");
    if (!handler || typeof handler !== "object") throw new Error("addEventHandler needs a handler object");
    let period = resyncPeriodMs ?? this.defaultResyncMs;
    if (!(period >= 0)) throw new Error(`resync period must be >= 0, got ${period}`);
    if (period > 0) {
      if (period < MINIMUM_RESYNC_PERIOD_MS) period = MINIMUM_RESYNC_PERIOD_MS;
      if (period < this.resyncCheckPeriodMs) {
        if (this.started) period = this.resyncCheckPeriodMs;
        else {
          this.resyncCheckPeriodMs = period;
          for (const l of this.listeners.keys()) {
            l.resyncPeriodMs = determineResyncPeriod(l.requestedResyncPeriodMs, period);
          }
        }
      }
    }
    const listener = new ProcessorListener<T>(
      handler,
      period,
      determineResyncPeriod(period, this.resyncCheckPeriodMs),
      this.clock.now(),
      () => this.hasSynced(),
      (err, operation) => this.report(err, operation),
    );
    const registration: ResourceEventHandlerRegistration = {
      hasSynced: () => listener.hasSynced(),
      pending: () => listener.pending(),
    };
    this.registrations.set(registration, listener);
    this.listeners.set(listener, { syncing: true });
    if (this.started) {
      this.startListener(listener);
      // Synchronous with respect to delta processing (client-go takes blockDeltas): a consistent snapshot first.
      for (const obj of this.indexer.list()) listener.add({ type: "add", obj, isInInitialList: true });
    }
    return registration;
  }

  /** Unregisters a handler; its loop stops (notifications still buffered are dropped). */
  removeEventHandler(registration: ResourceEventHandlerRegistration): void {
    const listener = this.registrations.get(registration);
    if (!listener) return;
    this.registrations.delete(registration);
    this.listeners.get(listener)?.stop?.abort();
    this.listeners.delete(listener);
  }

  /** True once the first LIST has been popped and processed into the cache (client-go's `HasSynced`). */
  hasSynced(): boolean {
    return this.fifo?.hasSynced() ?? false;
  }

  /**
   * Waits until this informer has synced, polling every 100 ms through the informer's clock (client-go's
   * `cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)`). Resolves false if `signal` aborts, `timeoutMs`
   * passes or the informer stops first. To wait for several things at once (registrations' `hasSynced`), use
   * the free function {@link waitForCacheSync}.
   */
  waitForCacheSync(options: WaitForCacheSyncOptions = {}): Promise<boolean> {
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.lifecycle.signal])
      : this.lifecycle.signal;
    return waitForCacheSync([() => this.hasSynced()], {
      ...options,
      clock: options.clock ?? this.clock,
      signal,
    });
  }

  /** The reflector's last synced resourceVersion ("" before start). */
  lastSyncResourceVersion(): string {
    return this.reflector?.lastSyncResourceVersion() ?? "";
  }

  /** The reflector's counters (lists, watches, 410s...), or undefined before start. */
  reflectorStats(): ReflectorStats | undefined {
    return this.reflector?.stats();
  }

  /** True after {@link start} or {@link run}. */
  isStarted(): boolean {
    return this.started;
  }

  /** True once the informer has stopped. */
  isStopped(): boolean {
    return this.stopped;
  }

  /**
   * Runs the informer until `signal` aborts (or {@link stop}); resolves when the reflector, the pop loop and every
   * handler loop have stopped. Runs once: a second call (or a call after `stop`) rejects with `AlreadyRunError`.
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, (until) => this.runInternal(until));
  }

  /** Starts the informer in the background: {@link run} without a signal; does nothing the second time. */
  start(): void {
    if (this.lifecycle.used) return;
    void this.run();
  }

  /** Stops everything it started and waits for it; idempotent, and safe before start. */
  async stop(): Promise<void> {
    await this.lifecycle.stop();
    this.stopped = true;
  }

  /** Reports one survived error as `onError(error, { component: "informer <name>", operation })`. */
  private report(error: unknown, operation: string): void {
    this.onError(error, { component: this.component, operation });
  }

  private async runInternal(signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      this.stopped = true;
      return;
    }
    this.started = true;
    const fifo = new DeltaFIFO<T>({ knownObjects: this.indexer, transformer: this.transform });
    this.fifo = fifo;
    this.reflector = new Reflector<T>(this.listerWatcher, fifo, {
      ...this.options.reflector,
      name: this.options.name,
      clock: this.clock,
      random: this.options.random,
      resyncPeriodMs: this.resyncCheckPeriodMs,
      shouldResync: () => this.shouldResync(),
      onError: this.onError,
    });
    for (const listener of this.listeners.keys()) this.startListener(listener);
    await Promise.all([this.reflector.run(signal), this.popLoop(fifo, signal)]);
    fifo.close();
    // The processor stops strictly after the controller (reflector + pop loop), as in client-go.
    const loops = [...this.listeners.values()].map((entry) => {
      entry.stop?.abort();
      return entry;
    });
    await Promise.all(loops.map((l) => l.loop));
    this.stopped = true;
  }

  private startListener(listener: ProcessorListener<T>): void {
    const entry = this.listeners.get(listener)!;
    entry.stop = new AbortController();
    entry.loop = listener.run(entry.stop.signal);
  }

  /**
   * client-go's `processLoop`: pop forever; a burst is drained in batches without an await per key. As client-go's
   * controller does, stopping closes the queue (a waiting pop then returns false): one abort listener for the
   * whole loop, instead of one added and removed by every pop that waits.
   */
  private async popLoop(fifo: DeltaFIFO<T>, signal: AbortSignal): Promise<void> {
    const process = (deltas: Delta<T>[], initial: boolean, key: string) =>
      this.handleDeltas(deltas, initial, key);
    if (signal.aborted) return;
    const closeQueue = () => fifo.close();
    signal.addEventListener("abort", closeQueue, { once: true });
    try {
      while (!signal.aborted) {
        try {
          if (!(await fifo.pop(process))) return;
          for (let n = 1; n < POP_BATCH && !signal.aborted && fifo.tryPop(process); n++);
        } catch (err) {
          this.report(err, "process deltas");
        }
      }
    } finally {
      signal.removeEventListener("abort", closeQueue);
    }
  }

  /** client-go's `processDeltas`: update the cache, then notify (Sync/Replaced/Added/Updated -> add or update). */
  private handleDeltas(deltas: Delta<T>[], isInInitialList: boolean, key: string): void {
    for (const delta of deltas) {
      try {
        if (delta.type === "Deleted") {
          this.indexer.delete(delta.object);
          this.distribute({ type: "delete", obj: delta.object }, false);
          continue;
        }
        const obj = delta.object as T;
        // The FIFO and the indexer key objects alike (both deletionHandlingMetaNamespaceKeyFunc).
        const old = this.indexer.upsertByKey(key, obj);
        if (old !== undefined) {
          const isSync = resourceVersionOf(old) === resourceVersionOf(obj);
          this.distribute({ type: "update", oldObj: old, newObj: obj }, isSync);
        } else {
          this.distribute({ type: "add", obj, isInInitialList }, false);
        }
      } catch (err) {
        this.report(err, `cache ${delta.type}`);
      }
    }
  }

  private distribute(notification: Notification<T>, sync: boolean): void {
    for (const [listener, entry] of this.listeners) {
      if (!sync || entry.syncing) listener.add(notification);
    }
  }

  /** Called by the reflector's resync timer: marks due listeners as syncing; true if any is due. */
  private shouldResync(): boolean {
    const now = this.clock.now();
    let needed = false;
    for (const [listener, entry] of this.listeners) {
      entry.syncing = listener.shouldResync(now);
      if (entry.syncing) {
        needed = true;
        listener.determineNextResync(now);
      }
    }
    return needed;
  }
}
