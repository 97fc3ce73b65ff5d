import { badRequest } from "../errors.js";
import { cloneJson, isJsonObject, JsonDepthError } from "../storage/json.js";
import type { KubeObject, ResourceType } from "../types.js";
import { apiVersionOf } from "./resource-type.js";

/**
 * Turns a request body into a private, mutable copy of the object the URL names, as kube-apiserver's decoder
 * does: the body must be a JSON object; `apiVersion`/`kind`, when present, must match the resource (400
 * BadRequest otherwise) and are filled in when absent; `metadata` must be an object. The copy goes through
 * JSON, so `__proto__` keys stay plain data and nothing the caller holds is shared with the store.
 */
export function decodeBody(body: unknown, rt: ResourceType): KubeObject {
  if (!isJsonObject(body)) {
    throw badRequest(`the body of the request must be a ${rt.kind} object, got ${describe(body)}`);
  }
  let obj: KubeObject;
  try {
    obj = cloneJson(body) as KubeObject;
  } catch (err) {
    if (err instanceof JsonDepthError)
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${err.message}`,
      );
    throw err;
  }
  const expected = apiVersionOf(rt);
  if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== rt.kind) {
    throw badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${rt.kind})`,
    );
  }
  if (obj.metadata !== undefined && !isJsonObject(obj.metadata)) {
    throw badRequest(
      `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: metadata must be an object`,
    );
  }
  const meta = obj.metadata ?? {};
  for (const field of ["name", "generateName", "namespace", "resourceVersion", "uid"] as const) {
    if (meta[field] !== undefined && typeof meta[field] !== "string") {
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: metadata.${field} must be a string`,
      );
    }
  }
  // Stored objects always carry apiVersion and kind first, like the real server's encoder.
  return { apiVersion: expected, kind: rt.kind, ...obj, metadata: { ...meta } };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}
