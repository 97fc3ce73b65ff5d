import { badRequest } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import { cloneJson, isJsonObject, JsonDepthError } from "../json.js";
import type { ResourceType } from "../types.js";
import { apiVersionOf } from "./resource-type.js";

/**
 * Request bodies their only holder gave to the registry: objects the HTTP handler has just parsed from the wire
 * for this one request (depth-bounded before parsing, plain JSON). {@link decodeBody} takes them as they are
 * instead of copying them. Weak, so a body that is never decoded (a request refused before) leaves nothing behind.
 */
const handedOver = new WeakSet<object>();

/**
 * Gives a freshly parsed request body to the registry: the caller promises that nothing else holds it and that
 * it will not read or change it again. Returns the body. Anything not handed over is copied on decode.
 */
export function handOverBody<T>(body: T): T {
  if (body !== null && typeof body === "object") handedOver.add(body);
  return body;
}

/**
 * Turns a request body into a private, mutable copy of the object the URL names, as kube-apiserver's decoder
 * does: the body must be a JSON object; `apiVersion`/`kind`, when present, must match the resource (400
 * BadRequest otherwise, worded as kube-apiserver's decoder words it) and are filled in when absent; `metadata` must be an object. The copy goes through
 * JSON, so `__proto__` keys stay plain data and nothing the caller holds is shared with the store.
 */
export function decodeBody(body: unknown, rt: ResourceType): KubeObject {
  if (!isJsonObject(body)) {
    throw badRequest(`the body of the request must be a ${rt.kind} object, got ${describe(body)}`);
  }
  let obj: KubeObject;
  try {
    // A body handed over by the HTTP layer is already a private copy: decoded once, as kube-apiserver does.
    obj = (handedOver.delete(body) ? body : cloneJson(body)) as KubeObject;
  } catch (err) {
    if (err instanceof JsonDepthError)
      throw badRequest(
        `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${err.message}`,
      );
    throw err;
  }
  const expected = apiVersionOf(rt);
  const mismatch = typeMetaMismatch(obj, rt, expected);
  if (mismatch !== undefined) throw badRequest(mismatch);
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

/**
 * The decoder's 400 message when the body's apiVersion/kind name another type than the URL's, in kube-apiserver's
 * words: `<Kind> in version "<v>" cannot be handled as a <Kind>: ...`, where an unknown apiVersion is
 * "no kind ... is registered for version" and another kind of the same version is "unknown conversion".
 */
function typeMetaMismatch(obj: KubeObject, rt: ResourceType, expected: string): string | undefined {
  const apiVersion = obj.apiVersion === undefined ? expected : String(obj.apiVersion);
  const kind = obj.kind === undefined ? rt.kind : String(obj.kind);
  if (apiVersion === expected && kind === rt.kind) return undefined;
  const version = apiVersion.slice(apiVersion.indexOf("/") + 1);
  const prefix = `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${rt.kind}`;
  if (apiVersion !== expected) {
    return `${prefix}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:110"`;
  }
  const internal = rt.group === "" ? "core" : rt.group;
  return `${prefix}: converting (${version}.${kind}) to (${internal}.${rt.kind}): unknown conversion`;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}
