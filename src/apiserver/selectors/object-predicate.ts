import { badRequest } from "../errors.js";
import type { KubeObject } from "../types.js";
import { parseFieldSelector } from "./field-selector.js";
import { parseLabelSelector, SelectorParseError } from "./label-selector.js";

/** Field labels every resource supports (`DefaultClusterScopedAttr` / `DefaultNamespaceScopedAttrs`). */
export const DEFAULT_FIELD_LABELS: readonly string[] = ["metadata.name", "metadata.namespace"];

/** Field labels whose value lives somewhere other than their dotted path. */
const FIELD_ALIASES: Record<string, string> = { source: "source.component" };

/** Reads a dotted path as the string a field selector compares against ("" when absent). */
export function fieldValue(obj: KubeObject, label: string): string {
  let cur: unknown = obj;
  for (const part of (FIELD_ALIASES[label] ?? label).split(".")) {
    if (typeof cur !== "object" || cur === null || !Object.hasOwn(cur, part)) return "";
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === "string") return cur;
  if (typeof cur === "number" || typeof cur === "boolean") return String(cur);
  return "";
}

/**
 * Builds the predicate of a LIST or WATCH from `labelSelector` and `fieldSelector` (the generic registry's
 * `SelectionPredicate`). Returns undefined when both are empty, so callers can take the unfiltered fast path.
 * A selector that does not parse, or a field label the kind does not support, is 400 BadRequest.
 */
export function buildPredicate(
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
  extraFieldLabels: readonly string[],
  resource: string,
): ((obj: KubeObject) => boolean) | undefined {
  try {
    const labels = parseLabelSelector(labelSelector);
    const fields = parseFieldSelector(fieldSelector, [...DEFAULT_FIELD_LABELS, ...extraFieldLabels]);
    if (labels.empty && fields.empty) return undefined;
    const used = fields.requirements.map((r) => r.field);
    return (obj) => {
      if (!labels.empty && !labels.matches(obj.metadata?.labels)) return false;
      if (fields.empty) return true;
      const values: Record<string, string> = {};
      for (const f of used) values[f] = fieldValue(obj, f);
      return fields.matches(values);
    };
  } catch (err) {
    if (err instanceof SelectorParseError) {
      throw badRequest(
        `Unable to find ${JSON.stringify(resource)} that match label selector ${JSON.stringify(labelSelector ?? "")}, field selector ${JSON.stringify(fieldSelector ?? "")}: ${err.message}`,
      );
    }
    throw err;
  }
}
