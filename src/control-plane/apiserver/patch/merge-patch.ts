import { isJsonObject, type JsonObject, setOwn } from "../json.js";

/**
 * JSON Merge Patch (RFC 7386), `application/merge-patch+json`: objects merge key by key, `null` deletes a
 * key, anything else (arrays included) replaces the target value. Returns a new value; inputs are not
 * modified. Keys are written with {@link setOwn}, so a `__proto__` key in a patch is plain data.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const result: JsonObject = {};
  if (isJsonObject(target)) for (const [k, v] of Object.entries(target)) setOwn(result, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete result[k];
    else setOwn(result, k, applyMergePatch(Object.hasOwn(result, k) ? result[k] : undefined, v));
  }
  return result;
}
