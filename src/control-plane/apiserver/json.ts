/**
 * Safe JSON helpers for the store. Objects that come from clients are never trusted: they are copied through
 * `JSON.parse(JSON.stringify(...))`, which only produces plain data and turns a `"__proto__"` key into an ordinary
 * own property, and every key written programmatically goes through {@link setOwn}. Stored objects are frozen,
 * so no caller can mutate what the store holds (kube-apiserver gets the same guarantee by decoding a fresh object
 * from etcd bytes on every read).
 */

/** A JSON object with arbitrary keys. */
export type JsonObject = { [key: string]: unknown };

/** True for a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A deep copy holding only JSON data, with exactly `JSON.parse(JSON.stringify(value))` semantics (undefined
 * and functions dropped, non-finite numbers become null, `toJSON` honoured, BigInt and cycles throw a
 * TypeError), but without serializing: strings are shared, not copied, which makes it several times cheaper
 * for objects carrying large values. Every key is written as an own data property, so `__proto__` stays data.
 */
export function cloneJson<T>(value: T): T {
  return copy(value, "", new Set()) as T;
}

/**
 * How deep a request body may nest on the embedded server (checked on every body before anything walks it, see
 * `http/body.ts`). kube-apiserver's decoders allow 10,000 levels ({@link KUBE_MAX_JSON_DEPTH}); the walks here
 * (copy, pruning, validation, field sets, merges) recurse, and 1,000 levels keep them well inside Node's stack.
 */
export const MAX_BODY_DEPTH = 1_000;

/**
 * Deepest nesting {@link cloneJson} accepts: a backstop behind {@link MAX_BODY_DEPTH}, with room for what the
 * server adds below a body's deepest level (`managedFields` mirror the object's fields five levels down).
 */
export const MAX_JSON_DEPTH = 2_000;

/**
 * The nesting limit of kube-apiserver's JSON decoders: Go's encoding/json and sigs.k8s.io/json refuse a document
 * that opens more than 10,000 arrays or objects (`invalid character '[' exceeded max depth`), and
 * k8s.io/apimachinery's `util/json` number conversion stops at the same depth.
 */
export const KUBE_MAX_JSON_DEPTH = 10_000;

/** Thrown by {@link cloneJson} for a value nested deeper than {@link MAX_JSON_DEPTH}. */
export class JsonDepthError extends RangeError {
  override name = "JsonDepthError";
}

/**
 * Whether a decoded value opens more than `limit` arrays or objects on one path (the value itself counts as
 * the first level, as the Go decoders count). An explicit stack instead of recursion, so any depth is safe to
 * measure. For values that did not come from text
 * checked by the body decoder: YAML apply bodies and the result of a patch.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  // The deepest level each node was reached at: a child shared by many parents (a YAML alias) is walked again
  // only when reached deeper than before, so aliasing cannot make the walk exponential.
  const reached = new Map<object, number>([[value, 1]]);
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > limit) return true;
    for (const child of Object.values(node)) {
      if (child === null || typeof child !== "object" || (reached.get(child) ?? 0) >= depth + 1) continue;
      reached.set(child, depth + 1);
      stack.push([child, depth + 1]);
    }
  }
  return false;
}

function copy(value: unknown, key: string, ancestors: Set<object>): unknown {
  if (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    value = (value as { toJSON(k: string): unknown }).toJSON(key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value + 0 : null; // + 0 turns -0 into 0, as JSON does
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (ancestors.size >= MAX_JSON_DEPTH) throw new JsonDepthError(`exceeded max depth of ${MAX_JSON_DEPTH}`);
  if (ancestors.has(value)) throw new TypeError("Converting circular structure to JSON");
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const arr: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) arr[i] = copy(value[i], String(i), ancestors) ?? null;
    out = arr;
  } else {
    const obj: JsonObject = {};
    for (const k of Object.keys(value)) {
      const v = copy((value as JsonObject)[k], k, ancestors);
      if (v !== undefined) setOwn(obj, k, v);
    }
    out = obj;
  }
  ancestors.delete(value);
  return out;
}

/** Sets an own, enumerable property even when the key is `__proto__` (plain assignment would change the prototype). */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  // `__proto__` is the one accessor a plain object inherits; any other key assigns an own data property, and a
  // plain assignment keeps V8's fast object layout (defineProperty per key cost a fifth of a create).
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/** Freezes a JSON value and everything inside it; returns it for chaining. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

/** Structural equality of two JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** Where JSON text first opens more arrays or objects than a limit allows: the bracket and its offset. */
export interface NestingPastLimit {
  bracket: "[" | "{";
  at: number;
}

/**
 * Finds the first `[` or `{` that opens level `limit + 1` of JSON text, without parsing it: one pass over the
 * characters with a counter (brackets inside strings skipped), so the check costs no stack and runs before any
 * parser or walk sees the body. Go's JSON scanner refuses the same bracket (`invalid character '[' exceeded max
 * depth`). Malformed text is left to the parser.
 */
export function findNestingPastLimit(text: string, limit: number): NestingPastLimit | undefined {
  // Each level needs one bracket: a text this short cannot nest past the limit.
  if (text.length <= limit) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return { bracket: c === 0x5b ? "[" : "{", at: i };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}
