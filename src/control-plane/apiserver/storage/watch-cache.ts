/**
 * The watch cache: kube-apiserver's `Cacher` and `watchCache` (staging/src/k8s.io/apiserver/pkg/storage/cacher),
 * reduced to one process. It starts watches (from now, from a resourceVersion in the history window, or with
 * the current state first: `sendInitialEvents` and RV=0), fans every committed change out to the watchers of its
 * resource, serialized once, and sends periodic BOOKMARKs.
 *
 * Where kube-apiserver has a cache in front of etcd, the embedded server's store is never behind its own writes,
 * so there is no waiting for freshness: a resourceVersion newer than the store is 504 at once (kube-apiserver
 * first waits up to 3 s). The history window is the store's {@link EventHistory}.
 *
 * Invariants: a watcher receives changes in revision order, each at most once, and never after `stop()`;
 * bookmarks carry the current revision, which the watcher has fully received (delivery is synchronous); a
 * watch from a resourceVersion older than the window gets one ERROR event (410 Expired) and is closed.
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import type { Clock, Timer } from "../../../clock/clock.js";
import type { WatchHandle, WatchSink } from "../types.js";
import { CacheWatcher, type WatchTarget } from "./cache-watcher.js";
import type { ChangeEvent } from "./change-event.js";
import { readRange } from "./list-reader.js";
import type { MvccStore } from "./mvcc-store.js";
import { tooLargeResourceVersion, tooOldWatch } from "./resource-version.js";
import { SharedWatchEvent } from "./watch-event.js";

/** Default bookmark period (kube-apiserver's `defaultBookmarkFrequency` is 1 minute). */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

/** Where a watch starts, already parsed and validated by the caller. */
export interface WatchStart {
  /** The requested resourceVersion (0: none or "0"). */
  readonly resourceVersion: number;
  /** Send the current state as ADDED events first (`sendInitialEvents`, or RV=0 / none on a classic watch). */
  readonly sendInitialEvents: boolean;
  /** End the initial events with a BOOKMARK annotated `k8s.io/initial-events-end` (watch-list). */
  readonly initialEventsEndBookmark: boolean;
}

/** The watch cache of one store: every resource's watchers, and the bookmark timer. */
export class WatchCache {
  private readonly byResource = new Map<string, Set<CacheWatcher>>();
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

  /**
   * Starts a watch (`Cacher.Watch`): 504 for a resourceVersion newer than the store; one 410 ERROR event for one
   * older than the history window; otherwise the initial state or the history since the resourceVersion, then
   * every new change.
   */
  watch(target: WatchTarget, start: WatchStart, sink: WatchSink): WatchHandle {
    const current = this.store.revision;
    const rv = start.resourceVersion;
    if (rv > current) throw tooLargeResourceVersion(rv, current);
    if (!start.sendInitialEvents && rv > 0 && rv < this.store.compactedRevision) {
      const status = tooOldWatch(rv, this.store.compactedRevision).status;
      try {
        sink.event(SharedWatchEvent.fromObject("ERROR", { ...status }));
        sink.close();
      } catch {
        // a client that is already gone needs no error event
      }
      return { stop: () => {} };
    }
    const watcher = this.add(target, sink);
    if (start.sendInitialEvents) {
      const page = readRange(this.store.resource(target.resourceId), {
        namespace: target.namespace,
        rev: current,
        latest: true,
      });
      for (const v of page.versions) watcher.initial(v);
      watcher.lastRev = current;
      if (start.initialEventsEndBookmark) this.bookmark(watcher, { "k8s.io/initial-events-end": "true" });
    } else if (rv > 0) {
      for (const ev of this.store.history.since(rv)) {
        if (ev.resourceId !== target.resourceId) continue;
        watcher.deliver(ev);
        ev.settle();
      }
      watcher.lastRev = Math.max(watcher.lastRev, current);
    } else {
      watcher.lastRev = current;
    }
    return {
      stop: () => watcher.stop(),
      bookmark: () => {
        if (watcher.target.bookmarks) this.bookmark(watcher);
      },
    };
  }

  /** Registers a watcher; it receives every change committed from now on. */
  add(target: WatchTarget, sink: WatchSink): CacheWatcher {
    const w = new CacheWatcher(target, sink, (gone) => this.remove(gone));
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
  bookmark(w: CacheWatcher, annotations?: Record<string, string>): void {
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

  private remove(w: CacheWatcher): void {
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
