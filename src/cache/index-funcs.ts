import type { MetaObject } from "../apimachinery/object.js";

/**
 * Computes the indexed values of an object; an object may have several (client-go's `IndexFunc`). Return `[]` to
 * leave the object out of the index.
 */
export type IndexFunc<T> = (obj: T) => string[];

/** Index name to index function (client-go's `Indexers`). */
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** Name of the namespace index every informer cache carries (client-go's `cache.NamespaceIndex`). */
export const NAMESPACE_INDEX = "namespace";

/** Name of the index {@link ownerUIDIndexFunc} is usually registered under. */
export const OWNER_UID_INDEX = "ownerUID";

/** Indexes an object by its namespace, `""` for cluster-scoped objects (client-go's `MetaNamespaceIndexFunc`). */
export function metaNamespaceIndexFunc(obj: MetaObject): string[] {
  return [obj.metadata?.namespace ?? ""];
}

/**
 * Indexes an object by the UIDs of its owners, so `byIndex(OWNER_UID_INDEX, parent.metadata.uid)` finds the
 * children of a parent: how controllers map an owned object back to its owner without a LIST call.
 */
export function ownerUIDIndexFunc(obj: MetaObject): string[] {
  return (obj.metadata?.ownerReferences ?? []).map((ref) => ref.uid).filter((uid) => !!uid);
}

/** Like {@link ownerUIDIndexFunc} but only the controller owner (`controller: true`). */
export function controllerUIDIndexFunc(obj: MetaObject): string[] {
  const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  return ref?.uid ? [ref.uid] : [];
}
