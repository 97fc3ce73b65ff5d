/**
 * The delaying queue's waiting room: a binary min-heap of items ordered by the time they become ready, plus a map
 * from item to its entry. Mirrors client-go's `waitForPriorityQueue` and its `knownEntries` map
 * (`util/workqueue/delaying_queue.go`).
 *
 * Invariants: every entry's `index` is its position in `heap`; a parent is never later than its children (ties
 * broken by insertion order, so equal delays keep FIFO order); each item has at most one entry, the one with the
 * EARLIEST requested ready time.
 */

/** One waiting item and the time (clock milliseconds) at which it should be added to the queue. */
export interface WaitingEntry<T> {
  readonly item: T;
  readyAt: number;
  /** Insertion sequence number: the tie-breaker for equal `readyAt`. */
  seq: number;
  index: number;
}

/** Min-heap of {@link WaitingEntry} keyed by `readyAt`, deduplicated by item. */
export class WaitingHeap<T> {
  private readonly heap: WaitingEntry<T>[] = [];
  private readonly known = new Map<T, WaitingEntry<T>>();
  private nextSeq = 0;

  /** Number of waiting items. */
  get size(): number {
    return this.heap.length;
  }

  /** The entry that becomes ready first, without removing it. */
  peek(): WaitingEntry<T> | undefined {
    return this.heap[0];
  }

  /**
   * Schedules `item` at `readyAt`. If it already waits, only an earlier time replaces the old one (client-go's
   * `insert`): a waiting item fires once, at the earliest time anybody asked for.
   */
  insert(item: T, readyAt: number): void {
    const existing = this.known.get(item);
    if (existing) {
      if (readyAt < existing.readyAt) {
        existing.readyAt = readyAt;
        this.up(existing.index);
      }
      return;
    }
    const entry: WaitingEntry<T> = { item, readyAt, seq: this.nextSeq++, index: this.heap.length };
    this.heap.push(entry);
    this.known.set(item, entry);
    this.up(entry.index);
  }

  /** Removes and returns the earliest entry. */
  pop(): WaitingEntry<T> | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop()!;
    if (last !== top) {
      this.heap[0] = last;
      last.index = 0;
      this.down(0);
    }
    this.known.delete(top.item);
    return top;
  }

  /** Drops every entry. */
  clear(): void {
    this.heap.length = 0;
    this.known.clear();
  }

  /** The waiting items with their ready times, earliest first (O(n log n); for inspection). */
  toArray(): Array<{ item: T; readyAt: number }> {
    return [...this.heap]
      .sort((a, b) => this.compare(a, b))
      .map((e) => ({ item: e.item, readyAt: e.readyAt }));
  }

  private compare(a: WaitingEntry<T>, b: WaitingEntry<T>): number {
    return a.readyAt - b.readyAt || a.seq - b.seq;
  }

  // Sifts with a "hole": parents move down into it and the entry is written once where it belongs.
  private up(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (this.compare(entry, parent) >= 0) break;
      heap[i] = parent;
      parent.index = i;
      i = parentIndex;
    }
    heap[i] = entry;
    entry.index = i;
  }

  private down(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const entry = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && this.compare(heap[right]!, heap[child]!) < 0) child = right;
      const c = heap[child]!;
      if (this.compare(c, entry) >= 0) break;
      heap[i] = c;
      c.index = i;
      i = child;
    }
    heap[i] = entry;
    entry.index = i;
  }
}
