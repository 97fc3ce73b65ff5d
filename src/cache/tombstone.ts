import type { MetaObject } from "../client/object.js";
import { metaNamespaceKey } from "../meta/keys.js";

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

/** The object inside a tombstone, or the argument itself when it is not one. */
export function unwrapTombstone<T>(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
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
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  if (!obj || typeof obj !== "object") throw new Error(`object has no meta: ${String(obj)}`);
  return metaNamespaceKey(obj);
}
