/**
 * An unbounded first-in first-out buffer with O(1) amortised `push` and `shift` (Array.prototype.shift is O(n)).
 * client-go's processorListener uses a growing ring buffer (`buffer.RingGrowing`) for the same job.
 *
 * Invariant: the live items are `items[head..]`; the consumed prefix is dropped once it is over half the array.
 */
export class FifoBuffer<T> {
  private items: T[] = [];
  private head = 0;

  /** Number of items waiting. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Removes and returns the oldest item, or undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined as unknown as T;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** The waiting items, oldest first (a copy). */
  toArray(): T[] {
    return this.items.slice(this.head);
  }
}
