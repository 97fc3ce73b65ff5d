/**
 * A custom object's JSON as the CEL values a rule sees, typed by its structural schema, as apiextensions-apiserver's
 * `UnstructuredToVal` (`pkg/apiserver/schema/cel/values.go`) and `SchemaDeclType` (`model/schemas.go`) type them:
 *
 * | schema                                        | CEL type                    |
 * | --------------------------------------------- | --------------------------- |
 * | `integer`                                     | `int`                       |
 * | `number`                                      | `double`                    |
 * | `string`                                      | `string`                    |
 * | `string` with `format: date-time`             | `timestamp`                 |
 * | `string` with `format: duration`              | `duration`                  |
 * | `boolean`                                     | `bool`                      |
 * | `array`                                       | `list(items)`               |
 * | `object` with `properties`                    | an object; fields by name   |
 * | `object` with `additionalProperties`          | `map(string, values)`       |
 * | `x-kubernetes-int-or-string`                  | `int` or `string` (`dyn`)   |
 * | `x-kubernetes-preserve-unknown-fields`, none  | `dyn` (JSON: int, double...)|
 *
 * An object's fields are the properties present in the JSON (an absent one is `no such key`, so rules test it with
 * `has()`), named as CEL escapes them ({@link escapeProperty}). Invariant: the value was validated against the
 * schema first (types match); a value that does not match falls back to its JSON type, never throws.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { isJsonObject } from "../../json.js";
import type { SchemaProps } from "../openapi-schema.js";
import { parseGoDuration } from "./duration.js";

/** CEL's reserved words, which a property name may not be as a field name (`__<word>__` instead). */
const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

/**
 * A property name as a CEL field name (`cel.Escape` in k8s.io/apiserver/pkg/cel): `__` → `__underscores__`,
 * `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`, a reserved word `w` → `__w__`; `undefined` when the name
 * has other characters that no escape covers (such a property is not visible to rules).
 */
export function escapeProperty(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[_a-zA-Z][-._a-zA-Z0-9/]*$/.test(name)) return undefined;
  return name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
}

/** Whether values of this schema are typed by the data alone (`dyn`). */
function isDynamic(schema: SchemaProps | undefined): boolean {
  return !schema || schema.type === undefined || schema.type === "";
}

/** Wraps every list handed to CEL (the cost meter's hook, `cost.ts`); identity by default. */
export type ListWrapper = (items: unknown[]) => unknown[];

const asIs: ListWrapper = (items) => items;

/** A JSON value with no schema: integers are `int` (as Go's unstructured JSON decodes them), others by kind. */
function dynValue(value: unknown, list: ListWrapper): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return list(value.map((v) => dynValue(v, list)));
  if (isJsonObject(value)) return new Map(Object.entries(value).map(([k, v]) => [k, dynValue(v, list)]));
  return value;
}

/**
 * A JSON value (validated against `schema`) as the input `@bufbuild/cel` binds to a variable. `root` marks the
 * resource root, where `apiVersion`, `kind` and `metadata.name`/`generateName` are visible and nothing else of
 * metadata (`WithTypeAndObjectMeta`).
 */
export function toCelValue(
  value: unknown,
  schema: SchemaProps | undefined,
  root = false,
  list: ListWrapper = asIs,
): unknown {
  if (value === null || value === undefined) return null;
  if (schema?.["x-kubernetes-int-or-string"]) {
    return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (isDynamic(schema)) return dynValue(value, list);
  switch (schema?.type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value) ? BigInt(value) : dynValue(value, list);
    case "string":
      return typeof value === "string" ? stringValue(value, schema.format) : dynValue(value, list);
    case "array":
      return Array.isArray(value)
        ? list(value.map((v) => toCelValue(v, schema.items, false, list)))
        : dynValue(value, list);
    case "object":
      return isJsonObject(value) ? objectValue(value, schema, root, list) : dynValue(value, list);
    default:
      return value;
  }
}

function stringValue(value: string, format: string | undefined): unknown {
  if (format === "date-time") {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return timestampFromDate(date);
  } else if (format === "duration") {
    const d = parseGoDuration(value);
    if (d) return d;
  }
  return value;
}

function objectValue(
  value: Record<string, unknown>,
  schema: SchemaProps,
  root: boolean,
  list: ListWrapper,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const hasProps = schema.properties !== undefined;
  const extra = isJsonObject(schema.additionalProperties)
    ? (schema.additionalProperties as SchemaProps)
    : undefined;
  for (const [k, v] of Object.entries(value)) {
    if (root && (k === "apiVersion" || k === "kind")) out.set(k, v);
    else if (root && k === "metadata") out.set(k, metadataValue(v));
    else if (hasProps) {
      const name = escapeProperty(k);
      if (name !== undefined && Object.hasOwn(schema.properties ?? {}, k))
        out.set(name, toCelValue(v, schema.properties?.[k], false, list));
      else if (schema["x-kubernetes-preserve-unknown-fields"]) out.set(k, dynValue(v, list));
    } else if (extra) out.set(k, toCelValue(v, extra, false, list));
    else out.set(k, dynValue(v, list));
  }
  return out;
}

/** The metadata a root rule sees: only `name` and `generateName`. */
function metadataValue(meta: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isJsonObject(meta)) return out;
  for (const k of ["name", "generateName"]) if (typeof meta[k] === "string") out.set(k, meta[k]);
  return out;
}
