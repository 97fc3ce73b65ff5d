/**
 * Small accessors and checks the kind tables share: reading a dotted path, the "required" test of kube's
 * validation (absent, null, empty string or empty list), and a workload's selector and pod template checks
 * (`ValidatePodTemplateSpecForStatefulSet`-style, simplified to what a learner gets wrong).
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { validateContainers } from "../workload-strategies.js";

/** The value at a dotted path (`spec.jobTemplate.spec`), or undefined. */
export function at(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const p of path.split(".")) v = isJsonObject(v) ? v[p] : undefined;
  return v;
}

/** The object at a dotted path, or an empty object (never stored: reading only). */
export function objectIn(obj: unknown, path: string): JsonObject {
  const v = at(obj, path);
  return isJsonObject(v) ? v : {};
}

/** Whether kube's validation reports the value as missing (`Required value`). */
export function isMissing(v: unknown): boolean {
  return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
}

/** Adds `Required value` for each missing path. */
export function requireFields(obj: KubeObject, errs: FieldErrors, ...paths: string[]): void {
  for (const p of paths) if (isMissing(at(obj, p))) errs.required(p);
}

/** Adds `field is immutable` for each path whose value changed since `old`. */
export function immutableFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  errs: FieldErrors,
  ...paths: string[]
): void {
  if (!old) return;
  for (const p of paths) {
    if (JSON.stringify(at(obj, p)) !== JSON.stringify(at(old, p))) {
      errs.invalid(p, at(obj, p), "field is immutable");
    }
  }
}

/**
 * A workload's `spec.selector` (required, and matching the template's labels) and pod template (named
 * containers with images; `restartPolicy` among `restartPolicies`, reported as kube's apps validation does).
 */
export function validateSelectedTemplate(
  obj: KubeObject,
  errs: FieldErrors,
  restartPolicies: readonly string[],
): void {
  const selector = at(obj, "spec.selector");
  const labels = objectIn(obj, "spec.template.metadata.labels");
  if (!isJsonObject(selector)) errs.required("spec.selector");
  const matchLabels = isJsonObject(selector) ? objectIn(selector, "matchLabels") : {};
  const matches = isJsonObject(selector) && Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  if (!matches) {
    errs.invalid(
      "spec.template.metadata.labels",
      at(obj, "spec.template.metadata.labels"),
      "`selector` does not match template `labels`",
    );
  }
  validatePodTemplate(obj, "spec.template", errs);
  const policy = at(obj, "spec.template.spec.restartPolicy");
  if (typeof policy === "string" && !restartPolicies.includes(policy)) {
    errs.notSupported("spec.template.spec.restartPolicy", policy, restartPolicies);
  }
}

/** The containers of the pod template at `path` (`<path>.spec.containers`). */
export function validatePodTemplate(obj: unknown, path: string, errs: FieldErrors): void {
  const spec = at(obj, `${path}.spec`);
  validateContainers(isJsonObject(spec) ? spec : undefined, `${path}.spec`, errs);
}

/** Every item of the list at `path` that is an object, with its index. */
export function itemsAt(obj: unknown, path: string): Array<[JsonObject, number]> {
  const list = at(obj, path);
  if (!Array.isArray(list)) return [];
  return list.flatMap((v, i): Array<[JsonObject, number]> => (isJsonObject(v) ? [[v, i]] : []));
}
