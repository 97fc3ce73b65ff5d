import type { ChangeEvent } from "./change-event.js";

/**
 * The history window: the most recent committed changes, oldest first, in a ring buffer of fixed capacity.
 * It plays the part of kube-apiserver's watch cache history plus etcd's retained revisions: a watch can resume
 * from any resourceVersion >= {@link EventHistory.compactedRevision}; older ones get 410 Expired.
 *
 * Invariants: events are appended in strictly increasing revision order; `compactedRevision` is the revision
 * of the newest event ever dropped (or of the last explicit compaction), so every event with a revision
 * greater than it is still retained.
 */
export class EventHistory {
  private readonly ring: (ChangeEvent | undefined)[];
  private start = 0;
  private count = 0;
  private compacted = 0;

  /** @param capacity how many events to keep (>= 1). */
  constructor(
    readonly capacity: number,
    private readonly onDrop: (ev: ChangeEvent, compactedRevision: number) => void,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`historySize must be a positive integer`);
    this.ring = new Array(capacity);
  }

  /** Revision up to which history is gone: watching from an older resourceVersion is 410 Expired. */
  get compactedRevision(): number {
    return this.compacted;
  }

  /** Number of retained events. */
  get size(): number {
    return this.count;
  }

  /** Appends an event, dropping the oldest when full. */
  append(ev: ChangeEvent): void {
    if (this.count === this.capacity) this.dropOldest();
    this.ring[(this.start + this.count) % this.capacity] = ev;
    this.count++;
  }

  /** Retained events with revision > `rev`, oldest first. */
  since(rev: number): ChangeEvent[] {
    const out: ChangeEvent[] = [];
    // Binary search over the ring for the first event newer than rev.
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.get(mid).rev <= rev) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.count; i++) out.push(this.get(i));
    return out;
  }

  /** Drops every retained event; `compactedRevision` becomes `rev` (the current revision). */
  compact(rev: number): void {
    while (this.count > 0) this.dropOldest();
    this.compacted = Math.max(this.compacted, rev);
  }

  private get(i: number): ChangeEvent {
    return this.ring[(this.start + i) % this.capacity]!;
  }

  private dropOldest(): void {
    const ev = this.get(0);
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.count--;
    this.compacted = Math.max(this.compacted, ev.rev);
    this.onDrop(ev, this.compacted);
  }
}
