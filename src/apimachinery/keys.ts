/**
 * Cache keys. A controller's queue and cache identify objects by `namespace/name` (or `name` for
 * cluster-scoped objects), never by UID: client-go's `MetaNamespaceKeyFunc` and `SplitMetaNamespaceKey`.
 */

import type { MetaObject } from "./object.js";

/** `namespace/name`, or `name` when the object is cluster-scoped. Throws if the object has no name. */
export function metaNamespaceKey(obj: MetaObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new Error("object has no metadata.name");
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** Builds a key from parts (client-go's `cache.ObjectName{...}.String()`). */
export function joinKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** Splits a key back into namespace ("" for cluster-scoped) and name; anything but 1 or 2 parts is an error. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split("/");
  if (parts.length === 1 && parts[0]) return { namespace: "", name: parts[0] };
  if (parts.length === 2 && parts[1]) return { namespace: parts[0] ?? "", name: parts[1] };
  throw new Error(`unexpected key format: "${key}"`);
}
