import { badRequest } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import { type FieldSelector, parseFieldSelector } from "../../../apimachinery/selectors/field-selector.js";
import {
  type LabelSelector,
  parseLabelSelector,
  SelectorParseError,
} from "../../../apimachinery/selectors/label-selector.js";

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
 * A parsed `labelSelector` plus `fieldSelector` (the generic registry's `SelectionPredicate`). When only labels
 * are selected, {@link Selection.matchesLabels} decides without the full object.
 */
export class Selection {
  constructor(
    private readonly labels: LabelSelector,
    private readonly fields: FieldSelector,
  ) {}

  /** True when a field selector needs the whole object (labels alone are not enough). */
  get needsObject(): boolean {
    return !this.fields.empty;
  }

  /** Whether a label set satisfies the label selector. */
  matchesLabels(labels: Readonly<Record<string, string>> | undefined): boolean {
    return this.labels.empty || this.labels.matches(labels);
  }

  /** Whether an object satisfies both selectors. */
  matches(obj: KubeObject): boolean {
    if (!this.matchesLabels(obj.metadata?.labels)) return false;
    if (this.fields.empty) return true;
    const values: Record<string, string> = {};
    for (const r of this.fields.requirements) values[r.field] = fieldValue(obj, r.field);
    return this.fields.matches(values);
  }
}

/**
 * Parses the selectors of a LIST or WATCH. Returns undefined when both are empty, so callers can take the
 * unfiltered fast path. A selector that does not parse, or a field label the kind does not support, is 400
 * BadRequest carrying the parser's message alone, as kube-apiserver 1.34 words it.
 */
export function buildSelection(
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
  extraFieldLabels: readonly string[],
): Selection | undefined {
  try {
    const labels = parseLabelSelector(labelSelector);
    const fields = parseFieldSelector(fieldSelector, [...DEFAULT_FIELD_LABELS, ...extraFieldLabels]);
    if (labels.empty && fields.empty) return undefined;
    return new Selection(labels, fields);
  } catch (err) {
    if (err instanceof SelectorParseError) {
      throw badRequest(err.message);
    }
    throw err;
  }
}
