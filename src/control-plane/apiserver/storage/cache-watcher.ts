/**
 * One watch of the watch cache: kube-apiserver's `cacheWatcher` (storage/cacher/cache_watcher.go). It holds what a
 * client asked to see (resource, namespace, selector) and turns each committed change into the event that client
 * sees: a change that leaves the selection is a DELETED, one that enters it an ADDED, as `cacheWatcher.convertToWatchEvent` does.
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import type { WatchEvent, WatchSink } from "../types.js";
import type { ChangeEvent } from "./change-event.js";
import type { StoredVersion } from "./stored-version.js";
import { SharedWatchEvent } from "./watch-event.js";

/** What one watcher selects: a resource, optionally one namespace, optionally a selector predicate. */
export interface WatchTarget {
  resourceId: string;
  namespace: string | undefined;
  /** Selector predicate over a stored version; undefined matches everything. */
  match?: (version: StoredVersion) => boolean;
  /** `apiVersion` and `kind` for BOOKMARK objects. */
  apiVersion: string;
  kind: string;
  /** Send BOOKMARK events (`allowWatchBookmarks`). */
  bookmarks: boolean;
  /** The resource is served at several versions: rewrite objects stored under another apiVersion. */
  rewriteApiVersion?: boolean;
  /** The watched version has another shape than the stored one: each object converted (events.k8s.io/v1). */
  convert?: (stored: KubeObject) => KubeObject;
}

/** A registered watcher: its target, its sink and whether it is still running. */
export class CacheWatcher {
  stopped = false;
  /** Revision of the newest change this watcher has been given; older or equal ones are skipped. */
  lastRev = 0;

  constructor(
    readonly target: WatchTarget,
    private readonly sink: WatchSink,
    private readonly onStop: (w: CacheWatcher) => void,
  ) {}

  /** Delivers one event; a sink that throws is treated as a dead client and the watcher stops. */
  send(ev: WatchEvent): void {
    if (this.stopped) return;
    try {
      this.sink.event(this.target.rewriteApiVersion || this.target.convert ? this.convert(ev) : ev);
    } catch {
      this.stop();
    }
  }

  private convert(ev: WatchEvent): WatchEvent {
    if (ev.type === "BOOKMARK" || ev.type === "ERROR") return ev;
    if (this.target.convert) return SharedWatchEvent.fromObject(ev.type, this.target.convert(ev.object));
    if (ev.object.apiVersion === this.target.apiVersion) return ev;
    return SharedWatchEvent.fromObject(ev.type, { ...ev.object, apiVersion: this.target.apiVersion });
  }

  /** Delivers one committed change, translated through the selector the way the watch cache does it. */
  deliver(ev: ChangeEvent): void {
    if (ev.rev <= this.lastRev) return;
    this.lastRev = ev.rev;
    const t = this.target;
    if (t.namespace !== undefined && ev.namespace !== t.namespace) return;
    if (!t.match) {
      this.send(ev.as(ev.type));
      return;
    }
    const now = t.match(ev.version);
    const before = ev.prev !== undefined && t.match(ev.prev);
    if (ev.type === "DELETED") {
      if (before) this.send(ev.as("DELETED"));
    } else if (now && before) this.send(ev.as("MODIFIED"));
    else if (now) this.send(ev.as("ADDED"));
    else if (before) this.send(ev.leftSelection());
  }

  /** Sends a synthetic ADDED for an object that exists when the watch starts. */
  initial(version: StoredVersion): void {
    if (this.target.match && !this.target.match(version)) return;
    this.send(SharedWatchEvent.fromVersion("ADDED", version));
  }

  /** Stops the watcher and closes its sink. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onStop(this);
    try {
      this.sink.close();
    } catch {
      // a failing sink is already gone
    }
  }
}
