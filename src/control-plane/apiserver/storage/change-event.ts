import { cloneJson } from "../json.js";
import type { StoredVersion } from "./stored-version.js";
import { SharedWatchEvent } from "./watch-event.js";

/** What a committed write did to a key. */
export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

/**
 * One committed write, as the history window and watchers see it (etcd's watch event: key, new value, previous
 * value). `prev` lets a selector-filtered watcher turn an update that leaves (or enters) its selection into a
 * DELETED (or ADDED) event, exactly as the watch cache does.
 *
 * The three possible wire events are memoized here, so all watchers share one serialization of each.
 */
export class ChangeEvent {
  /** Wire events built for this change, by type ("LEFT" is {@link ChangeEvent.leftSelection}). */
  private memo: Partial<Record<ChangeType | "LEFT", SharedWatchEvent>> | undefined;

  constructor(
    /** Storage id of the resource (`group/resource`). */
    readonly resourceId: string,
    /** `namespace/name` or `name`. */
    readonly key: string,
    readonly namespace: string | undefined,
    readonly type: ChangeType,
    /** The new version (a tombstone for DELETED). */
    readonly version: StoredVersion,
    /** The version this write replaced (undefined for ADDED). */
    readonly prev: StoredVersion | undefined,
  ) {}

  /** The revision of the write. */
  get rev(): number {
    return this.version.rev;
  }

  /** The shared wire event of the given type for this change (ADDED/MODIFIED/DELETED all carry the new version). */
  as(type: ChangeType): SharedWatchEvent {
    this.memo ??= {};
    const ev = this.memo[type] ?? SharedWatchEvent.fromVersion(type, this.version);
    this.memo[type] = ev;
    return ev;
  }

  /**
   * The DELETED event a selector-filtered watcher gets when an update moves the object out of its selection:
   * the previous state stamped with this change's revision (the watch cache's `convertToWatchEvent`).
   */
  leftSelection(): SharedWatchEvent {
    this.memo ??= {};
    if (!this.memo.LEFT) {
      const old = cloneJson((this.prev ?? this.version).object());
      old.metadata = { ...old.metadata, resourceVersion: String(this.rev) };
      this.memo.LEFT = SharedWatchEvent.fromObject("DELETED", old);
    }
    return this.memo.LEFT;
  }

  /**
   * Forgets the memoized wire events once every live watcher has received them, so the history window holds
   * only the stored bytes, not a second serialized copy per event. Watchers that replay this change later
   * build (and share among themselves) fresh ones.
   */
  settle(): void {
    this.memo = undefined;
  }
}
