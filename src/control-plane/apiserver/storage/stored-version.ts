import type { KubeObject } from "../../../apimachinery/object.js";
import { deepFreeze } from "../json.js";

/** The JSON each live parsed object of a stored version was written as (see {@link storedJsonOf}). */
const jsonOfObject = new WeakMap<object, string>();

/**
 * The exact JSON text of `obj` when it is a stored version's frozen object, so a response can send the stored
 * bytes instead of serializing the object again (undefined for any other object). Frozen means the text can
 * never go stale.
 */
export function storedJsonOf(obj: object): string | undefined {
  return jsonOfObject.get(obj);
}

/**
 * One version of one key in the MVCC store: the bytes (a JSON string, like etcd's value) plus the revision
 * that wrote it. A tombstone (`deleted`) records the revision of a delete and the object's last state stamped
 * with that revision, which is what a DELETED watch event carries.
 *
 * Memory: the JSON string is the only strong copy of the object. The parsed, frozen object is cached behind a
 * `WeakRef`, so it is shared while anyone uses it and re-parsed on demand after a garbage collection. Labels
 * are kept strongly (they are small) so label selectors never need a parse.
 *
 * Invariant: `json` never changes; `object()` always deep-equals `JSON.parse(json)` and is deep-frozen.
 */
export class StoredVersion {
  private cache: WeakRef<KubeObject> | undefined;
  /** `metadata.labels` of this version (frozen), for label selectors. */
  readonly labels: Readonly<Record<string, string>> | undefined;

  constructor(
    /** The revision (resourceVersion) of the write that produced this version. */
    readonly rev: number,
    /** The serialized object, metadata.resourceVersion included. */
    readonly json: string,
    /** True when this version records a delete. */
    readonly deleted: boolean,
    parsed?: KubeObject,
  ) {
    const obj = this.hold(parsed ?? this.parse());
    this.labels = obj.metadata?.labels;
  }

  /** Builds a version from an object whose metadata.resourceVersion is already set; freezes the object. */
  static of(rev: number, object: KubeObject, deleted = false): StoredVersion {
    return new StoredVersion(rev, JSON.stringify(object), deleted, deepFreeze(object));
  }

  /** The frozen object: the cached one while it is alive, else freshly parsed from `json`. */
  object(): KubeObject {
    return this.cache?.deref() ?? this.hold(this.parse());
  }

  /** Caches `obj` as this version's object (weakly) and records `json` as its text for {@link storedJsonOf}. */
  private hold(obj: KubeObject): KubeObject {
    jsonOfObject.set(obj, this.json);
    this.cache = new WeakRef(obj);
    return obj;
  }

  private parse(): KubeObject {
    return deepFreeze(JSON.parse(this.json) as KubeObject);
  }
}
