/**
 * Lab 02 (reference answer): the store a Reflector writes into, with secondary indices: client-go's
 * `cache.Indexer` over its `threadSafeMap`, in a few dozen lines. The package's `Reflector` calls `replace` after
 * every LIST and `add`/`update`/`delete` for each watch event; controllers read with `get`, `list` and `byIndex`.
 */
import type { MetaObject, ReflectorStore } from "kube-controller-workbook";

/** Computes an object's values in one index; `[]` leaves it out of that index. */
export type IndexFunc<T> = (obj: T) => string[];

/** The key of an object: `namespace/name`, or `name` for a cluster-scoped one. */
export function keyOf(obj: MetaObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name}` : (obj.metadata?.name ?? "");
}

/** A keyed store with indices, kept consistent on every write. */
export class IndexedStore<T extends MetaObject = MetaObject> implements ReflectorStore<T> {
  private readonly items = new Map<string, T>();
  /** index name -> index value -> keys. Invariant: no empty key sets. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly indexers: Record<string, IndexFunc<T>> = {}) {
    for (const name of Object.keys(indexers)) this.indices.set(name, new Map());
  }

  add(obj: T): void {
    this.put(obj);
  }

  update(obj: T): void {
    this.put(obj);
  }

  delete(obj: T): void {
    const key = keyOf(obj);
    const old = this.items.get(key);
    if (!old) return;
    this.unindex(key, old);
    this.items.delete(key);
  }

  /** The whole content after a LIST: what the list does not hold is gone (a delete we never heard of). */
  replace(list: T[], _resourceVersion: string): void {
    this.items.clear();
    for (const index of this.indices.values()) index.clear();
    for (const obj of list) this.put(obj);
  }

  /** Nothing to re-deliver: a plain store has no consumers to notify. */
  resync(): void {}

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  /** Every stored object with `value` among its values in index `indexName`. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`no index named ${indexName}`);
    return [...(index.get(value) ?? [])].map((key) => this.items.get(key) as T);
  }

  private put(obj: T): void {
    const key = keyOf(obj);
    const old = this.items.get(key);
    // Compute the new values first: if an index function throws, the store stays as it was.
    const values = [...this.indices.keys()].map((name) => [name, this.indexers[name]!(obj)] as const);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, vals] of values) {
      const index = this.indices.get(name)!;
      for (const v of vals.slice(0, 1)) {
        const keys = index.get(v) ?? new Set<string>();
        keys.add(key);
        index.set(v, keys);
      }
    }
  }

  /** Removes `key` from every value the old object had, forgetting values left empty. */
  private unindex(key: string, old: T): void {
    for (const [name, index] of this.indices) {
      for (const v of this.indexers[name]!(old).slice(0, 1)) {
        const keys = index.get(v);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(v);
      }
    }
  }
}
