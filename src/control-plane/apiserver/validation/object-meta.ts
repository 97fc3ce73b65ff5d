import type { KubeObject, OwnerReference } from "../../../apimachinery/object.js";
import { labelValueErrors, qualifiedNameErrors } from "../../../apimachinery/validation/names.js";
import { type FieldErrors, renderValue } from "./field-errors.js";

/** Finalizer names allowed without a `/` (`metav1.FinalizerOrphanDependents`, `FinalizerDeleteDependents`, core). */
export const STANDARD_FINALIZERS: readonly string[] = ["kubernetes", "orphan", "foregroundDeletion"];

/** Total annotation size limit (`TotalAnnotationSizeLimitB`, 256 KiB). */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/**
 * Validates `metadata` the way apimachinery's `ValidateObjectMeta` does: name (with the kind's name rule),
 * labels, annotations, finalizers and ownerReferences. Appends to `errs`.
 */
export function validateObjectMeta(
  obj: KubeObject,
  nameErrors: (name: string) => string[],
  errs: FieldErrors,
): FieldErrors {
  const meta = obj.metadata ?? {};
  if (!meta.name) {
    errs.required("metadata.name", "name or generateName is required");
  } else {
    for (const e of nameErrors(meta.name)) errs.invalid("metadata.name", meta.name, e);
  }
  validateStringMap(meta.labels, "metadata.labels", errs, true);
  validateStringMap(meta.annotations, "metadata.annotations", errs, false);
  if (meta.annotations && typeof meta.annotations === "object") {
    let size = 0;
    for (const [k, v] of Object.entries(meta.annotations)) size += k.length + String(v).length;
    if (size > MAX_ANNOTATIONS_BYTES) errs.tooLong("metadata.annotations", MAX_ANNOTATIONS_BYTES);
  }
  validateFinalizers(meta.finalizers, errs);
  validateOwnerReferences(meta.ownerReferences, errs);
  return errs;
}

function validateStringMap(map: unknown, path: string, errs: FieldErrors, labels: boolean): void {
  if (map === undefined || map === null) return;
  if (typeof map !== "object" || Array.isArray(map)) {
    errs.invalid(path, map, "must be a map of string keys to string values");
    return;
  }
  for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
    for (const e of qualifiedNameErrors(k)) errs.invalid(path, k, e);
    if (typeof v !== "string") {
      errs.invalid(`${path}[${k}]`, v, "must be a string");
      continue;
    }
    if (labels) for (const e of labelValueErrors(v)) errs.invalid(path, v, e);
  }
}

function validateFinalizers(finalizers: unknown, errs: FieldErrors): void {
  if (finalizers === undefined || finalizers === null) return;
  if (!Array.isArray(finalizers)) {
    errs.invalid("metadata.finalizers", finalizers, "must be a list of strings");
    return;
  }
  finalizers.forEach((f, i) => {
    const path = `metadata.finalizers[${i}]`;
    if (typeof f !== "string") {
      errs.invalid(path, f, "must be a string");
      return;
    }
    const qErrs = qualifiedNameErrors(f);
    for (const e of qErrs) errs.invalid(path, f, e);
    if (qErrs.length === 0 && !f.includes("/") && !STANDARD_FINALIZERS.includes(f)) {
      errs.invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified");
    }
  });
}

function validateOwnerReferences(refs: unknown, errs: FieldErrors): void {
  if (refs === undefined || refs === null) return;
  if (!Array.isArray(refs)) {
    errs.invalid("metadata.ownerReferences", refs, "must be a list");
    return;
  }
  const controllers: string[] = [];
  for (const ref of refs as Partial<OwnerReference>[]) {
    const path = "metadata.ownerReferences";
    if (typeof ref !== "object" || ref === null) {
      errs.invalid(path, ref, "must be an object");
      continue;
    }
    if (!ref.apiVersion)
      errs.invalid(`${path}.apiVersion`, ref.apiVersion ?? "", "version must not be empty");
    if (!ref.kind) errs.invalid(`${path}.kind`, ref.kind ?? "", "kind must not be empty");
    if (!ref.name) errs.invalid(`${path}.name`, ref.name ?? "", "name must not be empty");
    if (!ref.uid) errs.invalid(`${path}.uid`, ref.uid ?? "", "uid must not be empty");
    if (ref.apiVersion === "v1" && ref.kind === "Event") {
      errs.invalid(path, ref, "is not a valid owner: v1/Event");
    }
    if (ref.controller === true) controllers.push(`${ref.kind ?? ""}/${ref.name ?? ""}`);
  }
  if (controllers.length > 1) {
    errs.invalid(
      "metadata.ownerReferences",
      refs,
      `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(" and ")}`,
    );
  }
}

/** `ValidateNoNewFinalizers`: once deletionTimestamp is set, finalizers may only be removed. */
export function validateNoNewFinalizers(
  newFinalizers: readonly string[] | undefined,
  oldFinalizers: readonly string[] | undefined,
  errs: FieldErrors,
): void {
  const added = (newFinalizers ?? []).filter((f) => !(oldFinalizers ?? []).includes(f));
  if (added.length > 0) {
    errs.forbidden(
      "metadata.finalizers",
      `no new finalizers can be added if the object is being deleted, found new finalizers ${renderValue(added)}`,
    );
  }
}
