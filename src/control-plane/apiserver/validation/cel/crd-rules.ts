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

/** A schema node's rules; a null entry is an empty rule (as Go decodes it), anything else malformed is skipped. */
export function rulesOf(schema: SchemaProps): ValidationRule[] {
  const rules: unknown = schema["x-kubernetes-validations"];
  if (!Array.isArray(rules)) return [];
  return rules.map((r) => (isJsonObject(r) ? (r as ValidationRule) : {}));
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
  const rules = rulesOf(s);
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

/** The Go type a rule field decodes into (`apiextensions/v1.ValidationRule`). */
const RULE_FIELD_TYPES: Record<string, "string" | "bool"> = {
  rule: "string",
  message: "string",
  messageExpression: "string",
  reason: "string",
  fieldPath: "string",
  optionalOldSelf: "bool",
};

/** A JSON value's kind as Go's `UnmarshalTypeError` names it. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * Why a CRD body's `x-kubernetes-validations` do not decode into Go's types (`json: cannot unmarshal number into
 * Go struct field ValidationRule...rule of type string`), or `undefined` when they do. kube-apiserver's decoder
 * refuses such a body with 400 before validation; a `null` entry decodes as an empty rule (then 422 "rule is not
 * specified"), as Go decodes it.
 */
export function ruleDecodeError(
  schema: unknown,
  path = "spec.versions.schema.openAPIV3Schema",
  depth = 0,
): string | undefined {
  if (!isJsonObject(schema) || depth > 200) return undefined;
  const rules = schema["x-kubernetes-validations"];
  const at = `${path}.x-kubernetes-validations`;
  if (rules !== undefined && rules !== null) {
    if (!Array.isArray(rules)) {
      return `json: cannot unmarshal ${jsonKind(rules)} into Go struct field JSONSchemaProps.${at} of type v1.ValidationRules`;
    }
    for (const rule of rules) {
      if (rule === null) continue;
      if (!isJsonObject(rule)) {
        return `json: cannot unmarshal ${jsonKind(rule)} into Go struct field JSONSchemaProps.${at} of type v1.ValidationRule`;
      }
      for (const [field, type] of Object.entries(RULE_FIELD_TYPES)) {
        const v = rule[field];
        if (
          v === undefined ||
          v === null ||
          (type === "string" ? typeof v === "string" : typeof v === "boolean")
        )
          continue;
        return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ValidationRule.${at}.${field} of type ${type}`;
      }
    }
  }
  for (const sub of Object.values(isJsonObject(schema.properties) ? schema.properties : {})) {
    const why = ruleDecodeError(sub, `${path}.properties`, depth + 1);
    if (why) return why;
  }
  for (const key of ["items", "additionalProperties"]) {
    const why = ruleDecodeError(schema[key], `${path}.${key}`, depth + 1);
    if (why) return why;
  }
  return undefined;
}
