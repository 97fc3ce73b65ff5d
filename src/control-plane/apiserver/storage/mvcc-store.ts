import type { KubeObject } from "../../../apimachinery/object.js";
import { cloneJson } from "../json.js";
import { ChangeEvent } from "./change-event.js";
import { EventHistory } from "./event-history.js";
import { ResourceStore } from "./resource-store.js";
import { StoredVersion } from "./stored-version.js";

/** Default number of events kept for watch resumption (kube's watch cache keeps 100 to 102,400). */
export const DEFAULT_HISTORY_SIZE = 10_000;

/**
 * The multi-version key-value store behind the embedded API server, playing etcd's part: one global revision
 * counter shared by every resource, per-key version histories, and a bounded event history that drives watches.
 *
 * Invariants:
 * - `revision` only increases; each committed write gets `revision + 1` and stamps it into the object's
 *   `metadata.resourceVersion` (the decimal string clients see).
 * - When an event leaves the history window, the versions of its key that are older than the compacted
 *   revision are dropped too (etcd compaction), so reads at revisions >= `compactedRevision` stay exact.
 * - Listeners see every committed change in revision order, synchronously unless a listener itself writes
 *   (then the nested change is delivered right after the current one).
 */
export class MvccStore {
  private rev = 0;
  private readonly resources = new Map<string, ResourceStore>();
  private readonly listeners = new Set<(ev: ChangeEvent) => void>();
  private readonly pending: ChangeEvent[] = [];
  private dispatching = false;
  private inFlight: number | undefined;
  readonly history: EventHistory;

  constructor(historySize: number = DEFAULT_HISTORY_SIZE) {
    this.history = new EventHistory(historySize, (ev, compacted) => {
      this.resources.get(ev.resourceId)?.compactKey(ev.key, compacted);
    });
  }

  /** The newest revision handed out (0 before the first write). */
  get revision(): number {
    return this.rev;
  }

  /**
   * The newest revision every listener has been told about: `revision`, except while a change is being
   * fanned out (then the revision before it). A BOOKMARK must never claim more than this.
   */
  get notifiedRevision(): number {
    return this.inFlight === undefined ? this.rev : this.inFlight - 1;
  }

  /** Oldest revision a read or watch may still ask for. */
  get compactedRevision(): number {
    return this.history.compactedRevision;
  }

  /** The keyspace of one resource, created on first use. */
  resource(resourceId: string): ResourceStore {
    let rs = this.resources.get(resourceId);
    if (!rs) {
      rs = new ResourceStore();
      this.resources.set(resourceId, rs);
    }
    return rs;
  }

  /** Subscribes to committed changes; returns an unsubscribe. */
  subscribe(listener: (ev: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Writes `object` under `key` at the next revision (ADDED if the key has no live object, else MODIFIED).
   * The object is stamped with the revision and frozen; the caller must not use it mutably afterwards.
   */
  put(resourceId: string, key: string, namespace: string | undefined, object: KubeObject): ChangeEvent {
    const rs = this.resource(resourceId);
    const prev = rs.current(key);
    const rev = this.rev + 1;
    stampRevision(object, rev);
    const version = StoredVersion.of(rev, object);
    this.rev = rev;
    rs.put(key, version);
    return this.publish(
      new ChangeEvent(resourceId, key, namespace, prev ? "MODIFIED" : "ADDED", version, prev),
    );
  }

  /** Deletes the live object at `key` at the next revision; the tombstone holds its last state stamped with it. */
  remove(resourceId: string, key: string, namespace: string | undefined): ChangeEvent | undefined {
    const rs = this.resource(resourceId);
    const prev = rs.current(key);
    if (!prev) return undefined;
    const rev = this.rev + 1;
    const last = cloneJson(prev.object());
    stampRevision(last, rev);
    const tombstone = StoredVersion.of(rev, last, true);
    this.rev = rev;
    rs.put(key, tombstone);
    return this.publish(new ChangeEvent(resourceId, key, namespace, "DELETED", tombstone, prev));
  }

  /** Drops all history up to the current revision (etcd compaction plus an emptied watch cache). */
  compact(): void {
    this.history.compact(this.rev);
    for (const rs of this.resources.values()) rs.compactAll(this.rev);
  }

  private publish(ev: ChangeEvent): ChangeEvent {
    this.history.append(ev);
    this.pending.push(ev);
    // A listener that writes while being notified (re-entrancy) only queues its change: every listener still
    // sees every change in revision order.
    if (this.dispatching) return ev;
    this.dispatching = true;
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) {
        this.inFlight = next.rev;
        for (const listener of [...this.listeners]) listener(next);
      }
    } finally {
      this.dispatching = false;
      this.inFlight = undefined;
      this.pending.length = 0;
    }
    return ev;
  }
}

function stampRevision(object: KubeObject, rev: number): void {
  if (!object.metadata) object.metadata = {};
  object.metadata.resourceVersion = String(rev);
}
