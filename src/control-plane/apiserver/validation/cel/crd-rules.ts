/**
 * The checks a CRD write makes on its `x-kubernetes-validations` (apiextensions `ValidateCustomResourceDefinition`,
 * the rule part): a rule must be given, `message` non-empty and on one line, `reason` one of the four supported,
 * `fieldPath` a path the schema has; then every rule must compile, and a rule reading `oldSelf` must sit where an
 * old value can be correlated. Any failure makes the CRD write a 422, with causes at
 * `...x-kubernetes-validations[i].rule` (or `.message`, `.messageExpression`, `.reason`, `.fieldPath`).
 */
import { isJsonObject } from "../../json.js";
import type { FieldErrors } from "../field-errors.js";
import type { SchemaProps, ValidationRule } from "../openapi-schema.js";
import { compileRule } from "./compile.js";
import { normalizeFieldPath } from "./field-path.js";

const REASONS = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

/** Go's `encoding/json` of a string: JSON with `<`, `>`, `&`, U+2028 and U+2029 escaped (HTML-safe). */
function goJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A rule as kube-apiserver prints it as the value of a compile error's cause: the JSON of its internal Go struct
 * `apiextensions.ValidationRule` (field names capitalized, unset pointers null), as `field.Error` renders a struct.
 */
export function goRuleValue(rule: ValidationRule): string {
  const reason = rule.reason === undefined ? "null" : goJsonString(rule.reason);
  const optional = rule.optionalOldSelf === undefined ? "null" : String(rule.optionalOldSelf);
  return `{"Rule":${goJsonString(rule.rule ?? "")},"Message":${goJsonString(rule.message ?? "")},"MessageExpression":${goJsonString(rule.messageExpression ?? "")},"Reason":${reason},"FieldPath":${goJsonString(rule.fieldPath ?? "")},"OptionalOldSelf":${optional}}`;
}

/** A cause whose value is already rendered (not quoted again). */
function invalidRaw(errs: FieldErrors, field: string, raw: string, detail: string): void {
  errs.causes.push({ reason: "FieldValueInvalid", field, message: `Invalid value: ${raw}: ${detail}` });
}

/**
 * Checks the rules of one version's schema, at `path` (`spec.versions[0].schema.openAPIV3Schema`), recursing
 * through properties, items and additionalProperties.
 */
export function validateSchemaRules(schema: unknown, path: string, errs: FieldErrors): void {
  walk(schema, path, errs, true, undefined, 0);
}

function walk(
  schema: unknown,
  path: string,
  errs: FieldErrors,
  root: boolean,
  uncorrelatable: string | undefined,
  depth: number,
): void {
  if (!isJsonObject(schema) || depth > 200) return;
  const s = schema as SchemaProps;
  const rules = Array.isArray(s["x-kubernetes-validations"]) ? s["x-kubernetes-validations"] : [];
  const before = errs.causes.length;
  rules.forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    checkRuleFields(rule, s, at, errs);
  });
  if (errs.causes.length === before) {
    rules.forEach((rule, i) => {
      const at = `${path}.x-kubernetes-validations[${i}]`;
      const compiled = compileRule(rule, s, root);
      if (compiled.error !== undefined) invalidRaw(errs, `${at}.rule`, goRuleValue(rule), compiled.error);
      if (compiled.messageError !== undefined) {
        invalidRaw(errs, `${at}.messageExpression`, goRuleValue(rule), compiled.messageError);
      }
      if (compiled.error === undefined && compiled.usesOldSelf && uncorrelatable !== undefined) {
        errs.invalid(
          `${at}.rule`,
          rule.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
        );
      }
    });
  }
  const atomicMap =
    s["x-kubernetes-map-type"] !== undefined && !["granular", "atomic"].includes(s["x-kubernetes-map-type"]);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    walk(
      prop,
      `${path}.properties[${name}]`,
      errs,
      false,
      uncorrelatable ?? (atomicMap ? path : undefined),
      depth + 1,
    );
  }
  if (s.items) {
    const listUncorrelatable = s["x-kubernetes-list-type"] !== "map" ? path : undefined;
    walk(s.items, `${path}.items`, errs, false, uncorrelatable ?? listUncorrelatable, depth + 1);
  }
  if (isJsonObject(s.additionalProperties)) {
    walk(s.additionalProperties, `${path}.additionalProperties`, errs, false, uncorrelatable, depth + 1);
  }
}

function hasNewline(s: string): boolean {
  return s.includes("\n");
}

/** The per-field checks of one rule, before any compiling (`SchemaErrors`). */
function checkRuleFields(rule: ValidationRule, schema: SchemaProps, at: string, errs: FieldErrors): void {
  const text = (rule.rule ?? "").trim();
  const message = (rule.message ?? "").trim();
  if (text === "") errs.required(`${at}.rule`, "rule is not specified");
  else if ((rule.message ?? "").length > 0 && message === "") {
    errs.invalid(`${at}.message`, rule.message, "must be non-empty if specified");
  } else if (hasNewline(message)) errs.invalid(`${at}.message`, rule.message, "must not contain line breaks");
  else if (hasNewline(text) && message === "") {
    errs.required(`${at}.message`, "message must be specified if rule contains line breaks");
  }
  if ((rule.messageExpression ?? "").length > 0 && (rule.messageExpression ?? "").trim() === "") {
    errs.required(`${at}.messageExpression`, "messageExpression must be non-empty if specified");
  }
  if (rule.reason !== undefined && !REASONS.includes(rule.reason)) {
    errs.notSupported(`${at}.reason`, rule.reason, REASONS);
  }
  const fieldPath = rule.fieldPath;
  if (fieldPath !== undefined && fieldPath.length > 0) {
    if (fieldPath.trim() === "") errs.invalid(`${at}.fieldPath`, fieldPath, "must be non-empty if specified");
    if (hasNewline(fieldPath)) errs.invalid(`${at}.fieldPath`, fieldPath, "must not contain line breaks");
    if (normalizeFieldPath(fieldPath, schema) === undefined) {
      errs.invalid(`${at}.fieldPath`, fieldPath, "must be a valid path");
    }
  }
}
