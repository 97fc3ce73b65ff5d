import { describe, expect, it } from "vitest";
import { FifoBuffer } from "../../../src/cache/fifo-buffer.js";

describe("FifoBuffer", () => {
  it("keeps first-in first-out order across compactions", () => {
    const b = new FifoBuffer<number>();
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
    const b = new FifoBuffer<string>();
    for (const s of ["a", "b", "c"]) b.push(s);
    b.shift();
    expect(b.toArray()).toEqual(["b", "c"]);
  });
});
