import type { DeletedFinalStateUnknown } from "./tombstone.js";

/**
 * client-go's `cache.Store`: a keyed collection of objects. `add` and `update` are both upserts; `delete` of an
 * unknown key is a no-op; `replace` swaps in a whole new content (a LIST result) atomically.
 */
export interface Store<T> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T | DeletedFinalStateUnknown<T>): void;
  list(): T[];
  listKeys(): string[];
  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined;
  getByKey(key: string): T | undefined;
  replace(list: T[], resourceVersion: string): void;
  /** Re-delivers current content (meaningful only for queues such as DeltaFIFO; a plain store does nothing). */
  resync(): void;
}

/** What a DeltaFIFO needs from the informer's indexer to detect deletions and resync: client-go's `KeyListerGetter`. */
export interface KeyListerGetter<T> {
  listKeys(): string[];
  getByKey(key: string): T | undefined;
}

/**
 * Where a Reflector writes what it lists and watches (a DeltaFIFO, or any Store). `bookmark` is optional: called
 * with the resourceVersion of each BOOKMARK event.
 */
export interface ReflectorStore<T> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  replace(list: T[], resourceVersion: string): void;
  resync(): void;
  bookmark?(resourceVersion: string): void;
}
