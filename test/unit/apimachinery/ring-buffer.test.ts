import { describe, expect, it } from "vitest";
import { RingBuffer } from "../../../src/apimachinery/ring-buffer.js";

describe("RingBuffer", () => {
  it("keeps FIFO order across growth and wrap-around", () => {
    const f = new RingBuffer<number>(2);
    const expected: number[] = [];
    let next = 0;
    // Interleave pushes and shifts so the head wraps several times while the buffer grows.
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 7; i++) {
        f.push(next);
        expected.push(next++);
      }
      for (let i = 0; i < 5; i++) expect(f.shift()).toBe(expected.shift());
    }
    expect(f.length).toBe(expected.length);
    expect(f.toArray()).toEqual(expected);
    while (f.length > 0) expect(f.shift()).toBe(expected.shift());
    expect(f.shift()).toBeUndefined();
  });

  it("keeps first-in first-out order over thousands of items", () => {
    const b = new RingBuffer<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      b.push(i);
      if (i % 3 === 0) out.push(b.shift()!);
    }
    expect(b.length).toBe(5000 - out.length);
    while (b.length > 0) out.push(b.shift()!);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(b.shift()).toBeUndefined();
  });

  it("toArray shows the waiting items oldest first", () => {
    const b = new RingBuffer<string>();
    for (const s of ["a", "b", "c"]) b.push(s);
    b.shift();
    expect(b.toArray()).toEqual(["b", "c"]);
  });
});
