import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldErrors } from "./field-errors.js";

/** The part of a structural OpenAPI v3 schema the embedded server checks. */
export interface SchemaProps {
  type?: string;
  properties?: Record<string, SchemaProps>;
  items?: SchemaProps;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  /** Inclusive bounds of an integer or number (exclusive bounds are not modelled). */
  minimum?: number;
  maximum?: number;
  additionalProperties?: SchemaProps | boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  /** The value structural defaulting fills in (`registry/structural-defaults.ts`). */
  default?: unknown;
  /** `date-time`, `duration`, ...: decides a string's CEL type (`validation/cel/types.ts`). */
  format?: string;
  /** CEL validation rules (`validation/cel/`). */
  "x-kubernetes-validations"?: ValidationRule[];
  /** `atomic`, `set` or `map`: how CEL's `oldSelf` correlates list items (`map` by its keys). */
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  /** `granular` (default) or `atomic`. */
  "x-kubernetes-map-type"?: string;
}

/** One `x-kubernetes-validations` entry of a CRD schema (`apiextensions.ValidationRule`). */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  /** `FieldValueInvalid` (default), `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`. */
  reason?: string;
  /** A JSON path below the rule's node the error is reported at (`.spec.replicas`, `['a.b']`). */
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

function typeOk(value: unknown, type: string | undefined, schema: SchemaProps): boolean {
  if (schema["x-kubernetes-int-or-string"]) return typeof value === "string" || Number.isInteger(value);
  switch (type) {
    case undefined:
      return true;
    case "object":
      return isJsonObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    default:
      return true;
  }
}

function goTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * Validates a value against a structural schema the way apiextensions-apiserver reports it: wrong types
 * (`<path> in body must be of type integer: "string"`), missing required properties and values outside an
 * enum, recursively through `properties`, `additionalProperties` and `items`. Unknown fields are pruned
 * before this runs (registry/field-validation.ts).
 */
export function validateAgainstSchema(
  value: unknown,
  schema: SchemaProps,
  path: string,
  errs: FieldErrors,
): void {
  if (value === null || value === undefined) {
    if (value === null && !schema.nullable && schema.type !== undefined) {
      errs.invalid(path, "null", `${path} in body must be of type ${schema.type}: "null"`);
    }
    return;
  }
  if (!typeOk(value, schema.type, schema)) {
    errs.invalid(
      path,
      goTypeName(value),
      `${path} in body must be of type ${schema.type}: "${goTypeName(value)}"`,
    );
    return;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.notSupported(
      path,
      value,
      schema.enum.map((e) => (typeof e === "string" ? e : JSON.stringify(e))),
    );
  }
  if (typeof value === "number") validateBounds(value, schema, path, errs);
  if (isJsonObject(value)) validateObject(value, schema, path, errs);
  else if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      validateAgainstSchema(item, schema.items!, `${path}[${i}]`, errs);
    });
  }
}

/** kube-openapi's `ExceedsMinimum` / `ExceedsMaximum` with apiextensions-apiserver's wording. */
function validateBounds(value: number, schema: SchemaProps, path: string, errs: FieldErrors): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    errs.invalid(path, value, `${path} in body should be greater than or equal to ${schema.minimum}`);
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    errs.invalid(path, value, `${path} in body should be less than or equal to ${schema.maximum}`);
  }
}

function validateObject(value: JsonObject, schema: SchemaProps, path: string, errs: FieldErrors): void {
  const prefix = path ? `${path}.` : "";
  for (const req of schema.required ?? []) {
    if (!Object.hasOwn(value, req) || value[req] === undefined) errs.required(`${prefix}${req}`);
  }
  for (const [k, v] of Object.entries(value)) {
    const prop = schema.properties && Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
    if (prop) validateAgainstSchema(v, prop, `${prefix}${k}`, errs);
    else if (isJsonObject(schema.additionalProperties)) {
      validateAgainstSchema(v, schema.additionalProperties, `${prefix}${k}`, errs);
    }
  }
}

/**
 * Validates a custom object against its version's `openAPIV3Schema`, skipping `apiVersion`, `kind` and
 * `metadata` (validated by the server itself).
 */
export function validateCustomObject(obj: unknown, schema: SchemaProps | undefined, errs: FieldErrors): void {
  if (!schema || !isJsonObject(obj)) return;
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = obj;
  const { apiVersion: _sa, kind: _sk, metadata: _sm, ...props } = schema.properties ?? {};
  const required = (schema.required ?? []).filter(
    (r) => r !== "apiVersion" && r !== "kind" && r !== "metadata",
  );
  validateObject(rest, { ...schema, properties: props, required }, "", errs);
}
