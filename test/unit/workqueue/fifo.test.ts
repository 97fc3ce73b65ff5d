import { describe, expect, it } from "vitest";
import { Fifo } from "../../../src/workqueue/index.js";

describe("Fifo (ring buffer)", () => {
  it("keeps FIFO order across growth and wrap-around", () => {
    const f = new Fifo<number>(2);
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
});
