import type { MetaObject } from "../apimachinery/object.js";
import { type Indexers, type IndexFunc, metaNamespaceIndexFunc, NAMESPACE_INDEX } from "./index-funcs.js";
import type { Store } from "./store.js";
import {
  type DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  type KeyFunc,
} from "./tombstone.js";

/**
 * The read side of an {@link Indexer}, as `informer.getIndexer()` hands it out (client-go's `Indexer` read
 * methods: `List`, `ListKeys`, `Get`, `GetByKey`, `Index`, `IndexKeys`, `ByIndex`, `ListIndexFuncValues`,
 * `GetIndexers`). Only the informer writes its cache; the objects are shared, never mutate them.
 */
export type ReadonlyIndexer<T extends MetaObject = MetaObject> = Pick<
  Indexer<T>,
  | "keyOf"
  | "list"
  | "listKeys"
  | "get"
  | "getByKey"
  | "size"
  | "index"
  | "indexKeys"
  | "byIndex"
  | "listIndexFuncValues"
  | "getIndexers"
>;

/**
 * The informer's cache: a keyed store plus secondary indices. client-go's `cache.Indexer` over its
 * `threadSafeMap` (a JavaScript event loop gives the same atomicity as its RWMutex: no method yields).
 *
 * Invariants:
 * - for every stored key k and every index n: k is in `indices[n][v]` exactly when v is one of `indexers[n]`
 *   applied to the stored object of k; value sets are never empty (emptied ones are removed);
 * - `add` and `update` are the same upsert; `delete` of an unknown key does nothing;
 * - `replace` swaps the content and rebuilds every index;
 * - an index function that throws leaves the store unchanged (client-go panics instead).
 *
 * Build it as client-go does, `new Indexer(keyFunc, indexers)` (`cache.NewIndexer`); both arguments may be
 * left out. The namespace index ({@link NAMESPACE_INDEX} with {@link metaNamespaceIndexFunc}) is always
 * installed, as client-go's generated informers do, so passing it yourself the client-go way
 * (`{ [NAMESPACE_INDEX]: metaNamespaceIndexFunc }`) is accepted as the same registration.
 * Objects are shared with every reader: never mutate an object you got from the cache.
 */
export class Indexer<T extends MetaObject = MetaObject> implements Store<T> {
  private items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private indices = new Map<string, Map<string, Set<string>>>();

  /**
   * @param keyFunc how objects are keyed (default `namespace/name`, tombstones by their own key)
   * @param indexers extra indices, index name to index function
   */
  constructor(
    private readonly keyFunc: KeyFunc<T> = deletionHandlingMetaNamespaceKeyFunc,
    indexers: Indexers<T> = {},
  ) {
    this.indexers.set(NAMESPACE_INDEX, metaNamespaceIndexFunc);
    this.indices.set(NAMESPACE_INDEX, new Map());
    this.addIndexers(indexers);
  }

  /** The key this store files `obj` under. */
  keyOf(obj: T | DeletedFinalStateUnknown<T>): string {
    return this.keyFunc(obj);
  }

  add(obj: T): void {
    this.upsert(this.keyFunc(obj), obj);
  }

  update(obj: T): void {
    this.upsert(this.keyFunc(obj), obj);
  }

  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyFunc(obj);
    const old = this.items.get(key);
    if (old === undefined) return;
    this.unindex(key, this.valuesOf(old, key));
    this.items.delete(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    return this.items.get(this.keyFunc(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Number of stored objects. */
  get size(): number {
    return this.items.size;
  }

  /** Replaces the whole content and rebuilds every index (the `resourceVersion` argument is unused, as in client-go). */
  replace(list: T[], _resourceVersion = ""): void {
    const items = new Map<string, T>();
    for (const obj of list) items.set(this.keyFunc(obj), obj);
    const indices = new Map<string, Map<string, Set<string>>>();
    for (const name of this.indexers.keys()) indices.set(name, new Map());
    for (const [key, obj] of items) this.indexInto(indices, key, this.valuesOf(obj, key));
    this.items = items;
    this.indices = indices;
  }

  /** A plain store has nothing to re-deliver. */
  resync(): void {}

  /** Objects sharing at least one indexed value with `obj` under index `indexName` (client-go's `Index`). */
  index(indexName: string, obj: T): T[] {
    const fn = this.indexFunc(indexName);
    const keys = new Set<string>();
    for (const value of fn(obj)) for (const key of this.indexKeys(indexName, value)) keys.add(key);
    return [...keys].map((k) => this.items.get(k)!);
  }

  /** Keys whose objects have `value` under index `indexName`. */
  indexKeys(indexName: string, value: string): string[] {
    this.indexFunc(indexName);
    return [...(this.indices.get(indexName)?.get(value) ?? [])];
  }

  /** Objects that have `value` under index `indexName`. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k)!);
  }

  /** Every value currently present in index `indexName`. */
  listIndexFuncValues(indexName: string): string[] {
    this.indexFunc(indexName);
    return [...(this.indices.get(indexName)?.keys() ?? [])];
  }

  /** The registered index functions, namespace index included. */
  getIndexers(): Indexers<T> {
    return Object.fromEntries(this.indexers);
  }

  /**
   * Adds indices and back-fills them from the current content (client-go >= 1.30; older versions refused once the
   * store held items). Registering the same function again under the same name changes nothing; another
   * function under a registered name is an error, and then nothing is added.
   */
  addIndexers(indexers: Indexers<T>): void {
    const entries = Object.entries(indexers).filter(([name, fn]) => this.indexers.get(name) !== fn);
    for (const [name, fn] of entries) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: index "${name}" already exists`);
      if (typeof fn !== "function") throw new Error(`index "${name}" needs an index function`);
    }
    const built = new Map<string, Map<string, Set<string>>>();
    for (const [name, fn] of entries) {
      const index = new Map<string, Set<string>>();
      for (const [key, obj] of this.items) {
        for (const value of this.callIndexFunc(name, fn, obj, key)) addToSet(index, value, key);
      }
      built.set(name, index);
    }
    for (const [name, fn] of entries) {
      this.indexers.set(name, fn);
      this.indices.set(name, built.get(name)!);
    }
  }

  private indexFunc(indexName: string): IndexFunc<T> {
    const fn = this.indexers.get(indexName);
    if (!fn) throw new Error(`Index with name ${indexName} does not exist`);
    return fn;
  }

  /**
   * Stores `obj` under `key`, a key the caller already computed with this store's key function, and returns the
   * object it replaced (client-go's `threadSafeMap.Update(key, obj)`, which `cache.Store` calls after keying).
   * The informer uses it with the key its DeltaFIFO popped: one lookup per delta instead of three.
   */
  upsertByKey(key: string, obj: T): T | undefined {
    return this.upsert(key, obj);
  }

  private upsert(key: string, obj: T): T | undefined {
    const newValues = this.valuesOf(obj, key);
    const old = this.items.get(key);
    const oldValues = old === undefined ? undefined : this.valuesOf(old, key);
    this.items.set(key, obj);
    let i = 0;
    for (const name of this.indexers.keys()) {
      const index = this.indices.get(name)!;
      const before = oldValues?.[i];
      const after = newValues[i]!;
      i++;
      // Fast path (client-go has it too): one value, unchanged.
      if (before?.length === 1 && after.length === 1 && before[0] === after[0]) continue;
      if (before) removeFromIndex(index, before, key);
      for (const value of after) addToSet(index, value, key);
    }
    return old;
  }

  /**
   * Every index's values for one object, in indexer order, computed before anything is mutated so a throwing
   * IndexFunc leaves the store unchanged.
   */
  private valuesOf(obj: T, key: string): string[][] {
    const values: string[][] = [];
    for (const [name, fn] of this.indexers) values.push(this.callIndexFunc(name, fn, obj, key));
    return values;
  }

  private callIndexFunc(name: string, fn: IndexFunc<T>, obj: T, key: string): string[] {
    let values: unknown;
    try {
      values = fn(obj);
    } catch (err) {
      throw new Error(
        `index "${name}" failed on "${key}": ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!Array.isArray(values))
      throw new Error(`index "${name}" returned ${typeof values} for "${key}", not string[]`);
    return values as string[];
  }

  private indexInto(indices: Map<string, Map<string, Set<string>>>, key: string, values: string[][]): void {
    let i = 0;
    for (const name of this.indexers.keys()) {
      const index = indices.get(name)!;
      for (const value of values[i++]!) addToSet(index, value, key);
    }
  }

  private unindex(key: string, values: string[][]): void {
    let i = 0;
    for (const name of this.indexers.keys()) removeFromIndex(this.indices.get(name)!, values[i++]!, key);
  }
}

function removeFromIndex(index: Map<string, Set<string>>, values: string[], key: string): void {
  for (const value of values) {
    const set = index.get(value);
    if (!set) continue;
    set.delete(key);
    if (set.size === 0) index.delete(value);
  }
}

function addToSet(index: Map<string, Set<string>>, value: string, key: string): void {
  let set = index.get(value);
  if (!set) {
    set = new Set();
    index.set(value, set);
  }
  set.add(key);
}
