import type { KubeObject } from "../types.js";
import { deepFreeze } from "./json.js";

/**
 * One version of one key in the MVCC store: the bytes (a JSON string, like etcd's value) plus the revision
 * that wrote it. A tombstone (`deleted`) records the revision of a delete and the object's last state stamped
 * with that revision, which is what a DELETED watch event carries.
 *
 * Invariant: `json` never changes; `object()` always equals `JSON.parse(json)` and is deep-frozen.
 */
export class StoredVersion {
  private parsed: KubeObject | undefined;

  constructor(
    /** The revision (resourceVersion) of the write that produced this version. */
    readonly rev: number,
    /** The serialized object, metadata.resourceVersion included. */
    readonly json: string,
    /** True when this version records a delete. */
    readonly deleted: boolean,
    parsed?: KubeObject,
  ) {
    this.parsed = parsed;
  }

  /** Builds a version from an object whose metadata.resourceVersion is already set; freezes the object. */
  static of(rev: number, object: KubeObject, deleted = false): StoredVersion {
    return new StoredVersion(rev, JSON.stringify(object), deleted, deepFreeze(object));
  }

  /** The frozen object, parsed lazily when it was dropped by {@link StoredVersion.release}. */
  object(): KubeObject {
    this.parsed ??= deepFreeze(JSON.parse(this.json) as KubeObject);
    return this.parsed;
  }

  /** Drops the parsed object to save memory once this version is no longer the latest (the JSON stays). */
  release(): void {
    this.parsed = undefined;
  }
}
