/**
 * The one first-in first-out buffer of the workbook: a growable ring buffer with O(1) `push` and `shift`.
 * The workqueue keeps its order in it (client-go's `queue []t`, behind a pluggable `Queue` with `Push/Pop/Len`
 * on recent versions) and each informer listener buffers its pending notifications in it (client-go's
 * processorListener uses `k8s.io/utils/buffer.RingGrowing` for the same job).
 *
 * A JavaScript array's `shift()` moves every element, which turns a deep queue into O(n) per take; this buffer
 * keeps a head index and a power-of-two capacity instead.
 *
 * Invariants: `0 <= size <= slots.length`; the live items are `slots[(head + i) & mask]` for `i < size`;
 * freed slots are reset to `undefined` so popped items can be garbage-collected.
 */
export class RingBuffer<T> {
  private slots: Array<T | undefined>;
  private head = 0;
  private size = 0;

  /** @param initialCapacity rounded up to a power of two (minimum 16). */
  constructor(initialCapacity = 16) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.slots = new Array<T | undefined>(cap);
  }

  /** Number of items waiting. */
  get length(): number {
    return this.size;
  }

  /** Appends `item` at the tail. Amortised O(1). */
  push(item: T): void {
    if (this.size === this.slots.length) this.grow();
    this.slots[(this.head + this.size) & (this.slots.length - 1)] = item;
    this.size++;
  }

  /** Removes and returns the head, or `undefined` when empty. O(1). */
  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & (this.slots.length - 1);
    this.size--;
    return item;
  }

  /** Copies the items, head first (for inspection and tests; O(n)). */
  toArray(): T[] {
    const out: T[] = [];
    const mask = this.slots.length - 1;
    for (let i = 0; i < this.size; i++) out.push(this.slots[(this.head + i) & mask] as T);
    return out;
  }

  private grow(): void {
    const old = this.slots;
    const next = new Array<T | undefined>(old.length * 2);
    const mask = old.length - 1;
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) & mask];
    this.slots = next;
    this.head = 0;
  }
}
