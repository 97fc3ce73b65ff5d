import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WaitingHeap } from "../../../src/workqueue/waiting-heap.js";

describe("WaitingHeap", () => {
  it("pops items by earliest ready time (ties in insertion order), one entry per item at its earliest time", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ item: fc.integer({ min: 0, max: 30 }), readyAt: fc.integer({ min: 0, max: 50 }) }),
          {
            maxLength: 200,
          },
        ),
        (inserts) => {
          const heap = new WaitingHeap<number>();
          const model = new Map<number, { readyAt: number; order: number }>();
          inserts.forEach(({ item, readyAt }, order) => {
            heap.insert(item, readyAt);
            const known = model.get(item);
            if (!known) model.set(item, { readyAt, order });
            else if (readyAt < known.readyAt) known.readyAt = readyAt;
          });
          const expected = [...model.entries()]
            .sort((a, b) => a[1].readyAt - b[1].readyAt || a[1].order - b[1].order)
            .map(([item, e]) => ({ item, readyAt: e.readyAt }));
          expect(heap.size).toBe(model.size);
          const popped: Array<{ item: number; readyAt: number }> = [];
          for (let e = heap.pop(); e; e = heap.pop()) popped.push({ item: e.item, readyAt: e.readyAt });
          expect(popped).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
