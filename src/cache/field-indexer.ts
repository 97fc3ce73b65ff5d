import type { MetaObject } from "../apimachinery/object.js";
import type { Indexers } from "./index-funcs.js";
import type { ReadonlyIndexer } from "./indexer.js";

/**
 * Field indexes: find objects by a value computed from them (a referenced Secret's name, a node name) in the
 * cache's memory, without scanning it. controller-runtime's `mgr.GetFieldIndexer().IndexField(ctx, obj, field,
 * extractValue)` and `client.List(ctx, list, client.InNamespace(ns), client.MatchingFields{field: value})`, built
 * the way controller-runtime builds them: an ordinary client-go index (`cache.Indexers`, `AddIndexers`,
 * `ByIndex`) named `field:<field>`, whose values are namespaced so one index answers both "in this namespace"
 * and "in every namespace".
 */

/** The index name controller-runtime gives a field index (its internal `FieldIndexName`): `field:<field>`. */
export function fieldIndexName(field: string): string {
  return `field:${field}`;
}

/** What "every namespace" is filed under in a field index (controller-runtime's `__all_namespaces`). */
export const ALL_NAMESPACES_KEY = "__all_namespaces";

/**
 * The indexed value for `value` in namespace `namespace` (controller-runtime's internal `KeyToNamespacedKey`):
 * `<namespace>/<value>`, or `__all_namespaces/<value>` when `namespace` is empty.
 */
export function keyToNamespacedKey(namespace: string, value: string): string {
  return `${namespace || ALL_NAMESPACES_KEY}/${value}`;
}

/** Something an index can be added to: a `SharedIndexInformer` (before or after start) or an `Indexer`. */
export interface IndexerAdder<T> {
  addIndexers(indexers: Indexers<T>): void;
}

/**
 * Registers a field index (controller-runtime's `FieldIndexer.IndexField`): `extractValue` returns the values an
 * object is found under (`[]` leaves it out). A namespaced object is filed twice per value, under its namespace
 * and under {@link ALL_NAMESPACES_KEY}, exactly as controller-runtime does. Registering a field twice with
 * another function is an error (client-go's "indexer conflict").
 */
export function indexField<T extends MetaObject>(
  informer: IndexerAdder<T>,
  field: string,
  extractValue: (obj: T) => string[],
): void {
  informer.addIndexers({
    [fieldIndexName(field)]: (obj) => {
      const ns = obj.metadata?.namespace ?? "";
      const values = extractValue(obj);
      const keys = values.map((v) => keyToNamespacedKey(ns, v));
      return ns ? [...keys, ...values.map((v) => keyToNamespacedKey("", v))] : keys;
    },
  });
}

/**
 * The cached objects whose field `field` has `value`, in `namespace` or (left out) in every namespace:
 * controller-runtime's cached `List` with `client.MatchingFields{field: value}` (and `client.InNamespace`).
 * One index lookup, no scan. Throws when the field was never indexed, as controller-runtime's cache reports
 * "Index with name field:<field> does not exist".
 */
export function listByField<T extends MetaObject>(
  indexer: ReadonlyIndexer<T>,
  field: string,
  value: string,
  namespace = "",
): T[] {
  return indexer.byIndex(fieldIndexName(field), keyToNamespacedKey(namespace, value));
}
