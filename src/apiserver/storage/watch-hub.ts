import type { KubeObject } from "../../apimachinery/object.js";
import type { Clock, Timer } from "../../clock/clock.js";
import type { WatchEvent, WatchSink } from "../types.js";
import type { ChangeEvent } from "./change-event.js";
import type { MvccStore } from "./mvcc-store.js";
import type { StoredVersion } from "./stored-version.js";
import { SharedWatchEvent } from "./watch-event.js";

/** Default bookmark period (kube-apiserver's `defaultBookmarkFrequency` is 1 minute). */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

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
}

/** A registered watcher: its target, its sink and whether it is still running. */
export class Watcher {
  stopped = false;
  /** Revision of the newest change this watcher has been given; older or equal ones are skipped. */
  lastRev = 0;

  constructor(
    readonly target: WatchTarget,
    private readonly sink: WatchSink,
    private readonly onStop: (w: Watcher) => void,
  ) {}

  /** Delivers one event; a sink that throws is treated as a dead client and the watcher stops. */
  send(ev: WatchEvent): void {
    if (this.stopped) return;
    try {
      this.sink.event(this.target.rewriteApiVersion ? this.convert(ev) : ev);
    } catch {
      this.stop();
    }
  }

  private convert(ev: WatchEvent): WatchEvent {
    if (ev.type === "BOOKMARK" || ev.type === "ERROR" || ev.object.apiVersion === this.target.apiVersion)
      return ev;
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

/**
 * Fans committed changes out to watchers, and sends periodic BOOKMARKs. Mirrors kube-apiserver's `Cacher`
 * dispatch: one event, serialized once, reaches every interested watcher.
 *
 * Invariants: a watcher receives changes in revision order, each at most once, and never after `stop()`;
 * bookmarks carry the current revision, which the watcher has fully received (delivery is synchronous).
 */
export class WatchHub {
  private readonly byResource = new Map<string, Set<Watcher>>();
  private readonly unsubscribe: () => void;
  private bookmarkTimer: Timer | undefined;
  /** Running watchers that asked for bookmarks; the timer runs only while this is > 0. */
  private bookmarkWatchers = 0;
  private stopped = false;

  constructor(
    private readonly store: MvccStore,
    private readonly clock: Clock,
    private readonly bookmarkIntervalMs: number = DEFAULT_BOOKMARK_INTERVAL_MS,
  ) {
    this.unsubscribe = store.subscribe((ev) => this.dispatch(ev));
  }

  /** Registers a watcher; it receives every change committed from now on. */
  add(target: WatchTarget, sink: WatchSink): Watcher {
    const w = new Watcher(target, sink, (gone) => this.remove(gone));
    let set = this.byResource.get(target.resourceId);
    if (!set) {
      set = new Set();
      this.byResource.set(target.resourceId, set);
    }
    set.add(w);
    if (target.bookmarks) {
      this.bookmarkWatchers++;
      this.ensureBookmarkTimer();
    }
    return w;
  }

  /** Number of running watchers (all resources). */
  count(): number {
    let n = 0;
    for (const set of this.byResource.values()) n += set.size;
    return n;
  }

  /** Sends one BOOKMARK at the current revision to `w` (used periodically and on demand before closing). */
  bookmark(w: Watcher, annotations?: Record<string, string>): void {
    const metadata: KubeObject["metadata"] = { resourceVersion: String(this.store.notifiedRevision) };
    if (annotations) metadata.annotations = annotations;
    w.send(
      SharedWatchEvent.fromObject("BOOKMARK", {
        kind: w.target.kind,
        apiVersion: w.target.apiVersion,
        metadata,
      }),
    );
  }

  /** Stops every watcher of one resource (its CRD was deleted). */
  closeResource(resourceId: string): void {
    for (const w of [...(this.byResource.get(resourceId) ?? [])]) w.stop();
  }

  /** Stops all watchers and the bookmark timer. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    this.bookmarkTimer?.stop();
    this.bookmarkTimer = undefined;
    for (const set of [...this.byResource.values()]) for (const w of [...set]) w.stop();
  }

  private remove(w: Watcher): void {
    const set = this.byResource.get(w.target.resourceId);
    if (set?.delete(w) && w.target.bookmarks && --this.bookmarkWatchers === 0) {
      this.bookmarkTimer?.stop();
      this.bookmarkTimer = undefined;
    }
    if (set && set.size === 0) this.byResource.delete(w.target.resourceId);
  }

  private dispatch(ev: ChangeEvent): void {
    const set = this.byResource.get(ev.resourceId);
    if (!set) return;
    for (const w of [...set]) w.deliver(ev);
    ev.settle();
  }

  private ensureBookmarkTimer(): void {
    if (this.bookmarkTimer || this.stopped || this.bookmarkWatchers === 0) return;
    this.bookmarkTimer = this.clock.setTimer(this.bookmarkIntervalMs, () => {
      this.bookmarkTimer = undefined;
      for (const set of [...this.byResource.values()]) {
        for (const w of [...set]) if (w.target.bookmarks) this.bookmark(w);
      }
      this.ensureBookmarkTimer();
    });
  }
}
