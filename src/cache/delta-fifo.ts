import type { MetaObject } from "../apimachinery/object.js";
import { RingBuffer } from "../apimachinery/ring-buffer.js";
import type { KeyListerGetter, ReflectorStore } from "./store.js";
import { DeletedFinalStateUnknown, deletionHandlingMetaNamespaceKeyFunc, type KeyFunc } from "./tombstone.js";

/**
 * Why a delta was queued. `Added`/`Updated`/`Deleted` come from watch events, `Replaced` from a LIST (`Replace`),
 * `Sync` from a periodic resync. (client-go master adds `ReplacedAll`, `SyncAll`, `Bookmark` for its RealFIFO.)
 */
export type DeltaType = "Added" | "Updated" | "Deleted" | "Replaced" | "Sync";

/** One change to one object. For `Deleted` the object may be a {@link DeletedFinalStateUnknown} tombstone. */
export interface Delta<T> {
  readonly type: DeltaType;
  readonly object: T | DeletedFinalStateUnknown<T>;
}

/**
 * Consumes one key's deltas, oldest first. `isInInitialList` is true while the first LIST is being drained; `key`
 * is the key they were queued under.
 */
export type PopProcessFunc<T> = (deltas: Delta<T>[], isInInitialList: boolean, key: string) => void;

/** Options of {@link DeltaFIFO}. */
export interface DeltaFIFOOptions<T> {
  /** Key function; default `namespace/name` that understands tombstones. */
  keyFunction?: KeyFunc<T>;
  /** The informer's indexer: lets `delete` drop unknown objects, `replace` tombstone vanished ones, `resync` work. */
  knownObjects?: KeyListerGetter<T>;
  /** Applied once to every object entering the queue, except tombstones and `Sync` objects (already transformed). */
  transformer?: (obj: T) => T;
}

/**
 * The classic informer queue (client-go's `DeltaFIFO`, the default up to 1.32): a FIFO of keys where each key
 * holds every change (delta) since it was last popped.
 *
 * Invariants:
 * - a key is in `queue` exactly when it has a non-empty delta list in `items`, and appears in `queue` once;
 * - keys pop in the order their first pending delta arrived; a key's deltas come out oldest first, all at once;
 * - only two consecutive `Deleted` deltas are merged (keeping the real object over a tombstone); updates never are;
 * - `hasSynced()` turns true once every item of the first `replace` has been popped and processed (or on any
 *   add/update/delete before the first replace).
 *
 * Newer client-go (1.33+, `InOrderInformers`) replaced it by `RealFIFO`: one queue of single deltas in arrival
 * order, so events of different keys are never reordered. This class keeps the per-key grouping to teach it.
 */
export class DeltaFIFO<T extends MetaObject = MetaObject> implements ReflectorStore<T> {
  private items = new Map<string, Delta<T>[]>();
  private readonly queue = new RingBuffer<string>();
  private populated = false;
  private initialPopulationCount = 0;
  private closed = false;
  private waiters: Array<() => void> = [];
  private readonly keyFunc: KeyFunc<T>;
  private readonly knownObjects: KeyListerGetter<T> | undefined;
  private readonly transformer: ((obj: T) => T) | undefined;

  constructor(options: DeltaFIFOOptions<T> = {}) {
    this.keyFunc = options.keyFunction ?? deletionHandlingMetaNamespaceKeyFunc;
    this.knownObjects = options.knownObjects;
    this.transformer = options.transformer;
  }

  add(obj: T): void {
    this.populated = true;
    this.queueAction("Added", obj);
  }

  update(obj: T): void {
    this.populated = true;
    this.queueAction("Updated", obj);
  }

  /**
   * Queues a `Deleted` delta, unless the object is unknown both to `knownObjects` and to the pending deltas: a delete
   * of something never seen is dropped.
   */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyFunc(obj);
    const known = this.knownObjects ? this.knownObjects.getByKey(key) !== undefined : false;
    if (!known && !this.items.has(key)) return;
    this.populated = true;
    this.queueAction("Deleted", obj);
  }

  /**
   * Applies a full LIST: a `Replaced` delta per listed object, then a `Deleted` tombstone for every key that is
   * pending or known to the indexer but absent from the list (deletions missed during a watch gap). The first call
   * fixes how many keys must drain before `hasSynced()`.
   */
  replace(list: T[], _resourceVersion = ""): void {
    const knownKeys = this.knownObjects ? this.knownObjects.listKeys() : [];
    if (this.items.size === 0 && knownKeys.length === 0) {
      // Nothing pending and nothing known (the first LIST): no key can have vanished, so no key set is needed.
      for (const obj of list) this.queueAction("Replaced", obj);
      if (!this.populated) {
        this.populated = true;
        this.initialPopulationCount = this.items.size;
      }
      return;
    }
    const keys = new Set<string>();
    for (const obj of list) {
      const key = this.keyFunc(obj);
      keys.add(key);
      this.queueAction("Replaced", obj, key);
    }
    let queuedDeletions = 0;
    // Only existing keys get more deltas below, so iterating the live map is safe.
    for (const [key, deltas] of this.items) {
      if (keys.has(key)) continue;
      const newest = deltas[deltas.length - 1]?.object;
      const last = newest instanceof DeletedFinalStateUnknown ? newest.obj : newest;
      queuedDeletions++;
      this.queueAction("Deleted", new DeletedFinalStateUnknown(key, last), key);
    }
    for (const key of knownKeys) {
      if (keys.has(key) || this.items.has(key)) continue;
      queuedDeletions++;
      this.queueAction("Deleted", new DeletedFinalStateUnknown(key, this.knownObjects!.getByKey(key)), key);
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = keys.size + queuedDeletions;
    }
  }

  /** Queues a `Sync` delta for every known object that has no pending deltas (a stale copy is never resynced). */
  resync(): void {
    if (!this.knownObjects) return;
    for (const key of this.knownObjects.listKeys()) {
      if (this.items.has(key)) continue;
      const obj = this.knownObjects.getByKey(key);
      if (obj !== undefined) this.queueAction("Sync", obj, key);
    }
  }

  /**
   * Waits for a key, removes it with all its deltas and hands them to `process` (synchronously, so nothing else
   * touches the queue meanwhile: client-go holds its lock during process). Resolves true when an item was
   * processed, false when the queue was closed or `signal` aborted. An exception from `process` propagates after
   * the item has been removed.
   */
  async pop(process: PopProcessFunc<T>, signal?: AbortSignal): Promise<boolean> {
    while (this.length === 0) {
      if (this.closed || signal?.aborted) return false;
      await this.waitForItem(signal);
    }
    return this.tryPop(process);
  }

  /**
   * The synchronous half of {@link pop}: processes the head key if there is one and returns true, or returns false
   * at once when the queue is empty or closed. Lets a consumer drain a burst without one await per key.
   */
  tryPop(process: PopProcessFunc<T>): boolean {
    if (this.closed || this.length === 0) return false;
    const isInInitialList = !this.hasSynced();
    const key = this.queue.shift()!;
    const deltas = this.items.get(key)!;
    this.items.delete(key);
    try {
      process(deltas, isInInitialList, key);
    } finally {
      if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    }
    return true;
  }

  /** True once the first full LIST has been popped and processed (see class invariants). */
  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  /** Number of keys waiting. */
  get length(): number {
    return this.queue.length;
  }

  /** Keys waiting, in pop order. */
  listKeys(): string[] {
    return this.queue.toArray();
  }

  /** The pending deltas of one key (a copy), or undefined. */
  pending(key: string): Delta<T>[] | undefined {
    const deltas = this.items.get(key);
    return deltas ? [...deltas] : undefined;
  }

  /** Closes the queue: waiting and future `pop` calls resolve false. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** True after {@link close}. */
  isClosed(): boolean {
    return this.closed;
  }

  private queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>, key = this.keyFunc(obj)): void {
    let object = obj;
    if (this.transformer && type !== "Sync" && !(obj instanceof DeletedFinalStateUnknown)) {
      object = this.transformer(obj);
    }
    const existing = this.items.get(key);
    if (existing) {
      existing.push({ type, object });
      dedupLastDeletes(existing);
    } else {
      this.items.set(key, [{ type, object }]);
      this.queue.push(key);
    }
    if (this.waiters.length > 0) this.wake();
  }

  private waitForItem(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Merges the last two deltas in place when both are deletions (client-go's `dedupDeltas` + `isDeletionDup`). */
function dedupLastDeletes<T>(deltas: Delta<T>[]): void {
  const n = deltas.length;
  if (n < 2) return;
  const a = deltas[n - 1]!;
  const b = deltas[n - 2]!;
  if (a.type !== "Deleted" || b.type !== "Deleted") return;
  // Keep the older real object; if the older one is a tombstone, keep the newer one.
  deltas.splice(n - 2, 2, b.object instanceof DeletedFinalStateUnknown ? a : b);
}
