import { describe, expect, it } from "vitest";
import { churnWrites } from "../../../src/tools/bench/embedded-host.js";

describe("churnWrites", () => {
  it("counts the writes due strictly inside the window, the first at 0 ms", () => {
    expect(churnWrites(20, 500)).toBe(10); // due at 0, 50, ..., 450; the one due at 500 is outside
    expect(churnWrites(1000, 3000)).toBe(3000);
    expect(churnWrites(7, 1000)).toBe(7);
    expect(churnWrites(3, 1000)).toBe(3);
    expect(churnWrites(20, 510)).toBe(11); // 500 ms is inside a 510 ms window
    expect(churnWrites(100, 0)).toBe(0);
  });

  it("refuses a rate or a window that cannot be scheduled", () => {
    expect(() => churnWrites(0, 500)).toThrow(/bad churn/);
    expect(() => churnWrites(20, -1)).toThrow(/bad churn/);
    expect(() => churnWrites(Number.NaN, 500)).toThrow(/bad churn/);
  });
});
