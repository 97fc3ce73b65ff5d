import { describe, expect, it } from "vitest";
import { countTo, logLogSlope, median, percentile } from "../../../src/tools/bench/measure.js";
import { judged, meets, peerCost, peerRate } from "../../../src/tools/bench/types.js";

describe("bench statistics", () => {
  it("fits the log-log slope: linear 1, flat 0, square 2", () => {
    const xs = [1000, 10_000, 50_000, 100_000];
    expect(
      logLogSlope(
        xs,
        xs.map((x) => 3 * x),
      ),
    ).toBeCloseTo(1, 10);
    expect(
      logLogSlope(
        xs,
        xs.map(() => 42),
      ),
    ).toBeCloseTo(0, 10);
    expect(
      logLogSlope(
        xs,
        xs.map((x) => x * x),
      ),
    ).toBeCloseTo(2, 10);
  });

  it("ignores non-positive points and needs two", () => {
    expect(logLogSlope([1, 10, 100], [0, 10, 100])).toBeCloseTo(1, 10);
    expect(logLogSlope([1], [1])).toBeNaN();
  });

  it("takes nearest-rank percentiles and medians", () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(s, 50)).toBe(51);
    expect(percentile(s, 99)).toBe(100);
    expect(percentile([], 50)).toBeNaN();
    expect(median([5, 1, 3])).toBe(3);
  });

  it("judges targets and orients ratios so that above 1 means better for us", () => {
    expect(meets(5, ">= 5")).toBe(true);
    expect(meets(5.1, "<= 5")).toBe(false);
    expect(judged({ name: "x", value: Number.NaN, unit: "ms", target: "<= 1" }).met).toBe(false);
    expect(peerRate("go", 200, 100).ratio).toBe(2);
    expect(peerCost("go", 50, 100).ratio).toBe(2);
  });

  it("countTo resolves on the tick that reaches the target, and times out otherwise", async () => {
    const c = countTo(3);
    let reached = false;
    void c.reached.then(() => {
      reached = true;
    });
    c.tick();
    c.tick();
    await Promise.resolve();
    expect(reached).toBe(false);
    c.tick();
    await c.reached;
    expect(c.count()).toBe(3);
    await countTo(0).reached;
    const slow = countTo(2, 10);
    slow.tick();
    await expect(slow.reached).rejects.toThrow("only 1 of 2 after 10 ms");
  });
});
