/**
 * Field validation of request bodies (`?fieldValidation=Strict|Warn|Ignore`, kube-apiserver 1.27+), after the
 * strict decoding of its serializers and the structural pruning of apiextensions-apiserver:
 * - a built-in kind's body is decoded into its Go type: a field the type does not have is unknown, and is
 *   dropped; so is a JSON `null` Go would not write back (an omitempty field's null decodes to the zero value);
 * - a custom resource's body is pruned to its CRD's structural schema: fields the schema does not declare are
 *   unknown and dropped, unless `x-kubernetes-preserve-unknown-fields` keeps them;
 * - a key repeated in one JSON object is a duplicate field.
 * `Strict` turns unknown and duplicate fields into an error (400 on create and update, 422 on patch), `Warn`
 * (the default) into `Warning: 299` headers, `Ignore` into nothing; the fields are dropped in every mode.
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldSpec, MessageSchema } from "../schema/message-schema.js";
import type { SchemaProps } from "../validation/openapi-schema.js";

/** The three modes of `?fieldValidation=` (the empty value means Warn). */
export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** The values `?fieldValidation=` accepts, as kube-apiserver lists them in its 422. */
export const FIELD_VALIDATION_VALUES: readonly string[] = ["", "Ignore", "Strict", "Warn"];

/** Every JSON name a message's fields are known by, with inlined structs' fields lifted into it. */
const fieldsByJson = new WeakMap<MessageSchema, Map<string, FieldSpec>>();

function jsonFields(schema: MessageSchema): Map<string, FieldSpec> {
  const cached = fieldsByJson.get(schema);
  if (cached) return cached;
  const out = new Map<string, FieldSpec>();
  fieldsByJson.set(schema, out);
  for (const f of schema.fields.values()) {
    if (f.inline && f.message) for (const [k, v] of jsonFields(f.message)) out.set(k, v);
    else if (f.json !== "" && f.json !== "-") out.set(f.json, f);
  }
  return out;
}

/** Whether Go writes nothing back for a JSON null in this field (its zero value is omitted). */
function nullDisappears(f: FieldSpec): boolean {
  if (f.omitzero) return true;
  if (f.emit) return false;
  // omitempty leaves out nil pointers, slices, maps and zero scalars, but never a struct.
  return f.pointer || f.repeated || f.type !== "message" || f.message?.customJson === true;
}

/**
 * Drops the fields of a built-in object its Go type does not have (and nulls Go would not write back); returns
 * the unknown fields' paths (`spec.template.spec.containers[0].bogus`), in document order.
 */
export function pruneToGoType(obj: KubeObject, schema: MessageSchema): string[] {
  const unknown: string[] = [];
  walkMessage(obj as JsonObject, schema, "", unknown, true);
  return unknown;
}

function walkMessage(
  obj: JsonObject,
  schema: MessageSchema,
  path: string,
  unknown: string[],
  top = false,
): void {
  if (schema.customJson) return;
  const fields = jsonFields(schema);
  for (const key of Object.keys(obj)) {
    const at = path === "" ? key : `${path}.${key}`;
    if ((top || schema.typeMeta) && (key === "apiVersion" || key === "kind")) continue;
    const f = fields.get(key);
    if (f === undefined) {
      unknown.push(at);
      delete obj[key];
      continue;
    }
    const value = obj[key];
    if (value === null) {
      if (nullDisappears(f)) delete obj[key];
      continue;
    }
    walkValue(value, f, at, unknown);
  }
}

function walkValue(value: unknown, f: FieldSpec, path: string, unknown: string[]): void {
  const message = f.message;
  if (!message || message.customJson) return;
  if (f.type === "map") {
    if (isJsonObject(value))
      for (const [k, v] of Object.entries(value)) walkElement(v, message, `${path}.${k}`, unknown);
  } else if (f.repeated || message.slice) {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walkElement(v, message, `${path}[${i}]`, unknown);
      });
    }
  } else walkElement(value, message, path, unknown);
}

function walkElement(value: unknown, message: MessageSchema, path: string, unknown: string[]): void {
  if (isJsonObject(value) && !message.slice) walkMessage(value, message, path, unknown);
}

/**
 * Prunes a custom object to its version's structural schema (`structuralpruning.Prune`): fields neither
 * declared in `properties` nor allowed by `additionalProperties` or `x-kubernetes-preserve-unknown-fields` are
 * dropped; returns their paths. `apiVersion`, `kind` and `metadata` of the object itself are the server's.
 */
export function pruneToStructuralSchema(obj: KubeObject, schema: SchemaProps | undefined): string[] {
  const unknown: string[] = [];
  if (!schema) return unknown;
  pruneObject(obj as JsonObject, schema, "", unknown, true);
  return unknown;
}

function pruneObject(
  obj: JsonObject,
  schema: SchemaProps,
  path: string,
  unknown: string[],
  root: boolean,
): void {
  if (schema["x-kubernetes-preserve-unknown-fields"] && !schema.properties) return;
  const embedded = (schema as { "x-kubernetes-embedded-resource"?: boolean })[
    "x-kubernetes-embedded-resource"
  ];
  for (const key of Object.keys(obj)) {
    const at = path === "" ? key : `${path}.${key}`;
    if ((root || embedded) && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    const prop =
      schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    const sub = prop ?? (isJsonObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
    if (sub) {
      pruneValue(obj[key], sub, at, unknown);
      continue;
    }
    if (schema.additionalProperties === true || schema["x-kubernetes-preserve-unknown-fields"]) continue;
    unknown.push(at);
    delete obj[key];
  }
}

function pruneValue(value: unknown, schema: SchemaProps, path: string, unknown: string[]): void {
  if (isJsonObject(value)) pruneObject(value, schema, path, unknown, false);
  else if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    value.forEach((v, i) => {
      pruneValue(v, items, `${path}[${i}]`, unknown);
    });
  }
}

/** The strict decoding findings as kube-apiserver words them: `unknown field "a", duplicate field "b"`. */
export function strictDecodingMessage(unknown: readonly string[], duplicates: readonly string[]): string {
  const parts = [
    ...duplicates.map((d) => `duplicate field ${JSON.stringify(d)}`),
    ...unknown.map((u) => `unknown field ${JSON.stringify(u)}`),
  ];
  return `strict decoding error: ${parts.join(", ")}`;
}

/** The warnings of Warn mode, one per finding (sent as `Warning: 299 - "<text>"`). */
export function fieldWarnings(unknown: readonly string[], duplicates: readonly string[]): string[] {
  return [
    ...duplicates.map((d) => `duplicate field ${JSON.stringify(d)}`),
    ...unknown.map((u) => `unknown field ${JSON.stringify(u)}`),
  ];
}
