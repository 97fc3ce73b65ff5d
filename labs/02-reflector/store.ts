/**
 * Lab 02: the store a Reflector writes into, with secondary indices: client-go's `cache.Indexer`. The package's
 * `Reflector` calls `replace` after every LIST (the first one and every relist after 410 Gone) and
 * `add`/`update`/`delete` for each watch event; controllers read with `get`, `list` and `byIndex`. Read
 * `notebooks/02-reflector-and-cache.ipynb` (sections 2, 5 and 7) first.
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
  /** @param indexers index name -> index function, e.g. `{ team: (cm) => [cm.metadata?.labels?.team ?? ""] }` */
  constructor(readonly indexers: Record<string, IndexFunc<T>> = {}) {}

  add(_obj: T): void {
    // TODO: store the object under keyOf(obj) and file its key under each of its index values.
  }

  update(_obj: T): void {
    // TODO: like add; and the key must leave the index values the OLD object had and the new one has not.
  }

  delete(_obj: T): void {
    // TODO: forget the object and take its key out of every index value it was filed under.
  }

  replace(_list: T[], _resourceVersion: string): void {
    // TODO: the store's whole content becomes `list` (a LIST result): anything not in it is gone.
  }

  /** Nothing to re-deliver: a plain store has no consumers to notify. */
  resync(): void {}

  get(_key: string): T | undefined {
    // TODO: the object stored under `key` (namespace/name).
    return undefined;
  }

  list(): T[] {
    // TODO: every stored object.
    return [];
  }

  /** Every stored object with `value` among its values in index `indexName`. */
  byIndex(_indexName: string, _value: string): T[] {
    // TODO: without scanning every object: that is what the index is for.
    return [];
  }
}
