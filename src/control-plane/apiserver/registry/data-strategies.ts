import type { KubeObject } from "../../../apimachinery/object.js";
import { configMapKeyErrors } from "../../../apimachinery/validation/names.js";
import { isJsonObject, type JsonObject, jsonEqual } from "../json.js";
import { decodeError, type FieldErrors } from "../validation/field-errors.js";
import { BasicStrategy } from "./strategy.js";

/** Maximum total size of a ConfigMap's or Secret's data (`MaxSecretSize`, 1 MiB). */
export const MAX_DATA_BYTES = 1024 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Checks that `obj[field]` decodes as Go's `map[string]string` (400 BadRequest otherwise). */
function decodeStringMap(obj: KubeObject, field: string, kind: string, base64: boolean): void {
  const map = obj[field];
  if (map === undefined || map === null) return;
  if (!isJsonObject(map)) {
    throw decodeError(
      kind,
      "v1",
      `json: cannot unmarshal ${jsonType(map)} into Go struct field ${kind}.${field} of type map[string]`,
    );
  }
  for (const [k, v] of Object.entries(map)) {
    if (typeof v !== "string") {
      throw decodeError(
        kind,
        "v1",
        `json: cannot unmarshal ${jsonType(v)} into Go struct field ${kind}.${field} of type string`,
      );
    }
    if (base64 && !BASE64.test(v)) {
      throw decodeError(kind, "v1", `illegal base64 data in ${field}[${JSON.stringify(k)}]`);
    }
  }
}

/** The JSON type name Go's decoder uses in its messages. */
export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

function validateDataKeys(obj: KubeObject, fields: string[], errs: FieldErrors): void {
  const seen = new Set<string>();
  let size = 0;
  for (const field of fields) {
    const map = obj[field] as JsonObject | undefined;
    if (!map) continue;
    for (const [k, v] of Object.entries(map)) {
      for (const e of configMapKeyErrors(k)) errs.invalid(`${field}[${k}]`, k, e);
      if (seen.has(k)) errs.invalid(`${field}[${k}]`, k, "duplicate of key present in another data field");
      seen.add(k);
      size += k.length + String(v).length;
    }
  }
  if (size > MAX_DATA_BYTES) errs.tooLong("", MAX_DATA_BYTES);
}

/** `immutable: true` freezes the data fields and the flag itself (`ValidateConfigMapUpdate`, `ValidateSecretUpdate`). */
function validateImmutable(
  obj: KubeObject,
  old: KubeObject | undefined,
  fields: string[],
  errs: FieldErrors,
): void {
  if (old?.immutable !== true) return;
  if (obj.immutable !== true) errs.forbidden("immutable", "field is immutable when `immutable` is set");
  for (const f of fields) {
    if (!jsonEqual(obj[f], old[f])) errs.forbidden(f, "field is immutable when `immutable` is set");
  }
}

/** ConfigMap (core/v1): string data and base64 binaryData, valid keys, at most 1 MiB; no generation. */
export class ConfigMapStrategy extends BasicStrategy {
  override decode(obj: KubeObject): void {
    decodeStringMap(obj, "data", "ConfigMap", false);
    decodeStringMap(obj, "binaryData", "ConfigMap", true);
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    validateDataKeys(obj, ["data", "binaryData"], errs);
    validateImmutable(obj, old, ["data", "binaryData"], errs);
  }
}

/**
 * Secret (core/v1): `data` values must be base64 (a decode error, 400, as for the real server), `stringData`
 * is merged into `data` on write and never stored, `type` defaults to `Opaque` and is immutable.
 */
export class SecretStrategy extends BasicStrategy {
  constructor() {
    super({ extraFieldLabels: ["type"] });
  }

  override decode(obj: KubeObject): void {
    decodeStringMap(obj, "data", "Secret", true);
    decodeStringMap(obj, "stringData", "Secret", false);
    const stringData = obj.stringData as Record<string, string> | undefined;
    if (stringData) {
      const data: JsonObject = { ...((obj.data as JsonObject | undefined) ?? {}) };
      for (const [k, v] of Object.entries(stringData)) {
        Object.defineProperty(data, k, {
          value: Buffer.from(v, "utf8").toString("base64"),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      obj.data = data;
      delete obj.stringData;
    }
    if (obj.type !== undefined && typeof obj.type !== "string") {
      throw decodeError(
        "Secret",
        "v1",
        "json: cannot unmarshal into Go struct field Secret.type of type string",
      );
    }
  }

  override prepareForCreate(obj: KubeObject): void {
    if (!obj.type) obj.type = "Opaque";
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    if (!obj.type) obj.type = old.type;
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    validateDataKeys(obj, ["data"], errs);
    if (old && obj.type !== old.type) errs.invalid("type", obj.type, "field is immutable");
    validateImmutable(obj, old, ["data"], errs);
  }
}
