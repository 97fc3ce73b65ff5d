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

/** A deep copy holding only JSON data; `undefined`, functions and prototypes are dropped. */
export function cloneJson<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Sets an own, enumerable property even when the key is `__proto__` (plain assignment would change the prototype). */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
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
