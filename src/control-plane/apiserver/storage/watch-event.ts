import type { KubeObject } from "../../../apimachinery/object.js";
import { deepFreeze } from "../json.js";
import type { WatchEvent, WatchEventType } from "../types.js";
import { StoredVersion } from "./stored-version.js";

/**
 * A watch event whose wire line is built once and shared by every watcher. Events made from a
 * {@link StoredVersion} reuse its JSON bytes, so a line costs one string concatenation and the object is never
 * re-serialized, however many watchers receive it (the watch cache's `cachingObject` does the same in
 * kube-apiserver).
 */
export class SharedWatchEvent implements WatchEvent {
  private cached: string | undefined;

  constructor(
    readonly type: WatchEventType,
    private readonly source: StoredVersion | KubeObject,
  ) {}

  /** An event whose object is the stored version's object (ADDED, MODIFIED, DELETED). */
  static fromVersion(type: WatchEventType, version: StoredVersion): SharedWatchEvent {
    return new SharedWatchEvent(type, version);
  }

  /** An event carrying a free-standing object (BOOKMARK, ERROR); the object is frozen. */
  static fromObject(type: WatchEventType, object: KubeObject): SharedWatchEvent {
    return new SharedWatchEvent(type, deepFreeze(object));
  }

  get object(): KubeObject {
    return isVersion(this.source) ? this.source.object() : this.source;
  }

  line(): string {
    if (this.cached === undefined) {
      const json = isVersion(this.source) ? this.source.json : JSON.stringify(this.source);
      this.cached = `{"type":"${this.type}","object":${json}}\n`;
    }
    return this.cached;
  }
}

function isVersion(source: StoredVersion | KubeObject): source is StoredVersion {
  return source instanceof StoredVersion;
}
