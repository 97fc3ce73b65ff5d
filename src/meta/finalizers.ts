/**
 * Finalizers: names in `metadata.finalizers` that keep a deleted object in storage (with deletionTimestamp
 * set) until each owner of a name has done its cleanup and removed it.
 *
 * Two layers, in this one file:
 * - the checks and edits every controller needs, written once: {@link hasFinalizer}, {@link isBeingDeleted},
 *   {@link addFinalizer}, {@link removeFinalizer} (controller-runtime's `controllerutil.ContainsFinalizer`,
 *   `AddFinalizer` and `RemoveFinalizer`, which report whether they changed the object); the garbage collector
 *   and the namespace controller use them too;
 * - {@link finalizer}, the whole protocol as one function (kube-runtime's `finalizer()`): add the finalizer,
 *   apply, clean up on deletion, remove the finalizer.
 */
import type { MetaObject } from "../apimachinery/object.js";

/**
 * `metav1.FinalizerOrphanDependents`: the finalizer the API server sets for `propagationPolicy: Orphan`; the
 * garbage collector removes the owner references to the object from its dependents, then this finalizer.
 */
export const ORPHAN_FINALIZER = "orphan";
/**
 * `metav1.FinalizerDeleteDependents`: the finalizer the API server sets for `propagationPolicy: Foreground`;
 * the garbage collector deletes the blocking dependents first, then removes this finalizer.
 */
export const FOREGROUND_FINALIZER = "foregroundDeletion";

/** True if `obj` carries the finalizer `name`. */
export function hasFinalizer(obj: MetaObject, name: string): boolean {
  return obj.metadata?.finalizers?.includes(name) ?? false;
}

/** Adds `name` (in place) unless present; returns whether the object changed. */
export function addFinalizer(obj: MetaObject, name: string): boolean {
  if (!name) throw new Error("a finalizer name must not be empty");
  if (hasFinalizer(obj, name)) return false;
  obj.metadata ??= {};
  const metadata = obj.metadata;
  metadata.finalizers = [...(metadata.finalizers ?? []), name];
  return true;
}

/** Removes every occurrence of `name` (in place); returns whether the object changed. */
export function removeFinalizer(obj: MetaObject, name: string): boolean {
  if (!hasFinalizer(obj, name)) return false;
  obj.metadata!.finalizers = obj.metadata!.finalizers!.filter((f) => f !== name);
  return true;
}

/** True once deletion was requested (`metadata.deletionTimestamp` is set). */
export function isBeingDeleted(obj: MetaObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata?.deletionTimestamp !== null;
}

// --- The protocol as one function (kube-runtime's `finalizer()`). ---

/** What the finalizer helper asks the reconciler to do. */
export type FinalizerEvent<T> =
  /** The object is live and carries our finalizer: make the world match it (idempotently). */
  | { type: "apply"; object: T }
  /** The object is being deleted and still carries our finalizer: undo what apply did (idempotently). */
  | { type: "cleanup"; object: T };

/**
 * A merge patch of `metadata.finalizers` that carries the resourceVersion the decision was made on, so the
 * server rejects it with 409 Conflict if the object changed in between (we never overwrite a list we did
 * not see).
 */
export interface FinalizersPatch {
  metadata: { finalizers: string[]; resourceVersion: string };
}

/** Sends a {@link FinalizersPatch} for `object` as `application/merge-patch+json`. */
export type PatchFinalizers<T> = (object: T, patch: FinalizersPatch) => Promise<unknown>;

/** Which cell of the two-by-two table an object is in, and so what {@link finalizer} will do with it. */
export type FinalizerAction = "add-finalizer" | "apply" | "cleanup" | "nothing";

/** The two-by-two table: (finalizer present?, object deleting?) -> action. */
export function finalizerAction(object: MetaObject, name: string): FinalizerAction {
  const present = hasFinalizer(object, name);
  const deleting = isBeingDeleted(object);
  if (present) return deleting ? "cleanup" : "apply";
  return deleting ? "nothing" : "add-finalizer";
}

/** The guarded patch that changes `object`'s finalizers: `remove` dropped, then `add` appended. */
function finalizersPatch(object: MetaObject, change: { remove?: string; add?: string }): FinalizersPatch {
  const resourceVersion = object.metadata?.resourceVersion;
  if (!resourceVersion)
    throw new Error("the object has no resourceVersion: read it from the API before reconciling");
  const current = object.metadata?.finalizers ?? [];
  const finalizers = current.filter((f) => f !== change.remove);
  if (change.add) finalizers.push(change.add);
  return { metadata: { finalizers, resourceVersion } };
}

/**
 * Runs a reconcile under a finalizer, so cleanup is guaranteed to get its turn before the object disappears.
 *
 * Flow, step by step:
 * 1. A new object (no finalizer, not deleting): add our finalizer with a patch guarded by the object's
 *    resourceVersion, and return without reconciling. The write comes back as a watch event, which
 *    reconciles the object again, now with the finalizer.
 * 2. A live object with our finalizer: call `reconcile({type: "apply"})` and return its result.
 * 3. Someone deletes the object: the API server only sets deletionTimestamp, because our finalizer is there.
 *    The update reconciles it again: call `reconcile({type: "cleanup"})`.
 * 4. When cleanup returns, remove our finalizer with a guarded patch. If it was the last finalizer, the API
 *    server deletes the object during that write.
 * 5. A deleting object without our finalizer: nothing to do (we already cleaned up, or never applied).
 *
 * Guarantees:
 * - Apply never runs on an object that carries no finalizer of ours, so every object apply touched will
 *   get a cleanup call before it is gone (unless someone else strips our finalizer by hand).
 * - Apply is never called for an object that is being deleted; cleanup is never called for one that is not.
 * - The finalizer is removed only after cleanup succeeded; a cleanup that throws leaves it in place and the
 *   error goes to the caller (the controller retries with backoff).
 * - Both patches are guarded by resourceVersion: a patch based on a stale read fails with 409 instead of
 *   overwriting other finalizers.
 *
 * Assumptions:
 * - `object` was read from the API (or an up-to-date cache) and has a resourceVersion.
 * - `name` is a qualified finalizer name owned by this controller only (e.g. `example.com/cleanup`).
 * - The reconciler is level-triggered: a 409 here is just a retry later, with a fresh object.
 *
 * Caveats:
 * - Apply and cleanup may each run more than once (a crash after cleanup but before the finalizer removal
 *   runs cleanup again): both must be idempotent, and cleanup must succeed if the thing is already gone.
 * - Adding the finalizer is its own write, so the first apply happens one round trip later.
 * - An object deleted before the finalizer was added is never applied, so needs no cleanup.
 * - A controller that is uninstalled leaves its finalizer behind: objects then hang in Terminating.
 */
export async function finalizer<T extends MetaObject, R>(
  patch: PatchFinalizers<T>,
  name: string,
  object: T,
  reconcile: (event: FinalizerEvent<T>) => Promise<R>,
): Promise<R | undefined> {
  if (!name) throw new Error("a finalizer name must not be empty");
  switch (finalizerAction(object, name)) {
    case "add-finalizer":
      await patch(object, finalizersPatch(object, { add: name }));
      return undefined;
    case "apply":
      return reconcile({ type: "apply", object });
    case "cleanup": {
      const result = await reconcile({ type: "cleanup", object });
      await patch(object, finalizersPatch(object, { remove: name }));
      return result;
    }
    case "nothing":
      return undefined;
  }
}
