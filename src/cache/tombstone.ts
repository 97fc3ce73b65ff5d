import { metaNamespaceKey } from "../apimachinery/keys.js";
import type { MetaObject } from "../apimachinery/object.js";

/**
 * A tombstone: client-go's `DeletedFinalStateUnknown`. A relist (DeltaFIFO `Replace`) found that an object the
 * cache knew is gone, but the DELETED watch event was missed (a watch gap, a 410), so the final state is unknown.
 * `obj` is the last state the cache knew (possibly stale), or undefined if it knew none. `onDelete` handlers must
 * be ready to receive one instead of an object; {@link unwrapTombstone} helps.
 */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: T | undefined,
  ) {}
}

/**
 * True for a tombstone: a {@link DeletedFinalStateUnknown}, or a plain object of the same shape (a string `key`,
 * an `obj` field, and no `metadata`, which every Kubernetes object has), for tombstones that crossed a copy of
 * this module (two package copies in one process, a structured clone).
 */
export function isDeletedFinalStateUnknown<T>(
  obj: T | DeletedFinalStateUnknown<T>,
): obj is DeletedFinalStateUnknown<T> {
  if (obj instanceof DeletedFinalStateUnknown) return true;
  if (!obj || typeof obj !== "object") return false;
  const o = obj as { key?: unknown };
  return typeof o.key === "string" && "obj" in obj && !("metadata" in obj);
}

/** The object inside a tombstone (its last known state, maybe undefined), or the argument itself. */
export function unwrapTombstone<T>(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
  return isDeletedFinalStateUnknown(obj) ? obj.obj : obj;
}

/** Computes the cache key of an object (or tombstone). */
export type KeyFunc<T> = (obj: T | DeletedFinalStateUnknown<T>) => string;

/**
 * The key function of informer caches (client-go's `DeletionHandlingMetaNamespaceKeyFunc`): a tombstone's own
 * key, otherwise `namespace/name` (`name` for cluster-scoped objects).
 */
export function deletionHandlingMetaNamespaceKeyFunc<T extends MetaObject>(
  obj: T | DeletedFinalStateUnknown<T>,
): string {
  if (isDeletedFinalStateUnknown(obj)) return obj.key;
  if (!obj || typeof obj !== "object") throw new Error(`object has no meta: ${String(obj)}`);
  return metaNamespaceKey(obj);
}
