/**
 * Finalizers: names in `metadata.finalizers` that keep a deleted object in storage (with deletionTimestamp
 * set) until each owner of a name has done its cleanup and removed it. Mirrors controller-runtime's
 * `controllerutil.ContainsFinalizer`, `AddFinalizer` and `RemoveFinalizer` (which report whether they
 * changed the object).
 */

/** An object with finalizers and a deletion timestamp. */
export interface FinalizableLike {
  metadata?: { finalizers?: string[]; deletionTimestamp?: unknown; resourceVersion?: string };
}

/** True if `obj` carries the finalizer `name`. */
export function hasFinalizer(obj: FinalizableLike, name: string): boolean {
  return obj.metadata?.finalizers?.includes(name) ?? false;
}

/** Adds `name` (in place) unless present; returns whether the object changed. */
export function addFinalizer(obj: FinalizableLike, name: string): boolean {
  if (!name) throw new Error("a finalizer name must not be empty");
  if (hasFinalizer(obj, name)) return false;
  obj.metadata ??= {};
  const metadata = obj.metadata;
  metadata.finalizers = [...(metadata.finalizers ?? []), name];
  return true;
}

/** Removes every occurrence of `name` (in place); returns whether the object changed. */
export function removeFinalizer(obj: FinalizableLike, name: string): boolean {
  if (!hasFinalizer(obj, name)) return false;
  obj.metadata!.finalizers = obj.metadata!.finalizers!.filter((f) => f !== name);
  return true;
}

/** True once deletion was requested (`metadata.deletionTimestamp` is set). */
export function isBeingDeleted(obj: FinalizableLike): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata?.deletionTimestamp !== null;
}
