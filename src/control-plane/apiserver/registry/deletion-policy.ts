import type { DeleteOptions } from "../types.js";

/** `metav1.FinalizerOrphanDependents`. */
export const ORPHAN_FINALIZER = "orphan";
/** `metav1.FinalizerDeleteDependents`. */
export const FOREGROUND_FINALIZER = "foregroundDeletion";

/**
 * The finalizers a DELETE leaves on an object, after the garbage-collection policy is applied
 * (`deletionFinalizersForGarbageCollection` in kube's generic registry). Precedence: the deprecated
 * `orphanDependents` field, then `propagationPolicy`, then a policy finalizer already on the object, then the
 * kind's default (`DefaultGarbageCollectionPolicy`: orphan for batch/v1 Jobs, background for every other kind). Orphan adds `orphan` and drops `foregroundDeletion`; Foreground does the reverse;
 * Background drops both.
 */
export function finalizersForDeletion(
  existing: readonly string[],
  opts: DeleteOptions | undefined,
  orphanByDefault = false,
): string[] {
  let orphan: boolean;
  let foreground: boolean;
  if (typeof opts?.orphanDependents === "boolean") {
    orphan = opts.orphanDependents;
    foreground = false;
  } else if (opts?.propagationPolicy) {
    orphan = opts.propagationPolicy === "Orphan";
    foreground = opts.propagationPolicy === "Foreground";
  } else {
    orphan = existing.includes(ORPHAN_FINALIZER);
    foreground = !orphan && existing.includes(FOREGROUND_FINALIZER);
    if (!orphan && !foreground) orphan = orphanByDefault;
  }
  const out = existing.filter(
    (f) => (f !== ORPHAN_FINALIZER || orphan) && (f !== FOREGROUND_FINALIZER || foreground),
  );
  if (orphan && !out.includes(ORPHAN_FINALIZER)) out.push(ORPHAN_FINALIZER);
  if (foreground && !out.includes(FOREGROUND_FINALIZER)) out.push(FOREGROUND_FINALIZER);
  return out;
}

/** Whether DeleteOptions ask for a dry run (`dryRun: ["All"]`); anything malformed is not a dry run. */
export function isDryRunAll(opts: DeleteOptions | undefined): boolean {
  const dryRun: unknown = opts?.dryRun;
  return Array.isArray(dryRun) && dryRun.includes("All");
}
