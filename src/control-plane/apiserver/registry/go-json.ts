/**
 * A built-in object written as kube-apiserver writes it: decoded into its Go type and encoded back with Go's
 * encoding/json. Go writes every struct field that has no `omitempty` (`"replicas": 0`, `"status": {}`,
 * `"currentMetrics": null`), never leaves out a non-pointer struct (`"loadBalancer": {}`), and drops zero scalars
 * and empty slices and maps that have `omitempty`. Objects the embedded server stores this way read back
 * field for field like kube-apiserver's (a controller comparing its desired object with the stored one sees the
 * same fields on both servers). The per-field rules come from the generated protobuf schema (pointer, omitempty,
 * omitzero, inline), the same table the protobuf decoder renders with.
 */

import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldSpec, MessageSchema } from "../schema/message-schema.js";
import { zeroFieldJson } from "../serializer/protobuf/message-decoder.js";

const OMIT = Symbol("omit");

/**
 * Rewrites `obj` in place as Go writes a value of `schema` decoded from it. Fields the schema does not know are
 * left as they are (the field-validation step has already dropped them from a request body).
 */
export function writeAsGo(obj: JsonObject, schema: MessageSchema): JsonObject {
  if (schema.customJson) return obj;
  for (const spec of schema.fields.values()) {
    if (spec.inline) {
      if (spec.message) writeAsGo(obj, spec.message);
      continue;
    }
    if (spec.json === "" || spec.json === "-") continue;
    const value = Object.hasOwn(obj, spec.json) ? obj[spec.json] : undefined;
    const next = value === undefined || value === null ? absent(spec) : present(spec, value);
    if (next === OMIT) delete obj[spec.json];
    else obj[spec.json] = next;
  }
  return obj;
}

/** A field Go holds at its zero value (absent from JSON, or `null`, which decodes to the zero value). */
function absent(spec: FieldSpec): unknown {
  const zero = zeroFieldJson(spec);
  return zero === undefined ? OMIT : zero;
}

function present(spec: FieldSpec, value: unknown): unknown {
  if (spec.type === "map") {
    if (!isJsonObject(value)) return value;
    if (spec.message) {
      for (const [k, v] of Object.entries(value)) value[k] = element(spec.message, v);
    }
    return Object.keys(value).length === 0 && !spec.emit ? OMIT : value;
  }
  if (spec.repeated) {
    if (!Array.isArray(value)) return value;
    const message = spec.type === "message" ? spec.message : undefined;
    const items = message ? value.map((v) => element(message, v)) : value;
    return items.length === 0 && !spec.emit ? OMIT : items;
  }
  if (spec.type === "message" && spec.message) {
    if (spec.message.customJson) return value;
    if (!isJsonObject(value)) return value;
    const written = writeAsGo(value, spec.message);
    return spec.omitzero && Object.keys(written).length === 0 ? OMIT : written;
  }
  const zero = value === "" || value === 0 || value === false;
  if (zero && ((!spec.pointer && !spec.emit) || spec.omitzero)) return OMIT;
  return value;
}

/** One element of a slice or map of structs (`null` decodes to the zero struct). */
function element(message: MessageSchema, value: unknown): unknown {
  if (message.customJson) return value;
  if (value === null) return writeAsGo({}, message);
  return isJsonObject(value) ? writeAsGo(value, message) : value;
}
