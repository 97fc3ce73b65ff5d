import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  defaultItemBasedRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  WithMaxWaitRateLimiter,
} from "../../../src/workqueue/index.js";

describe("ItemExponentialFailureRateLimiter", () => {
  it("follows the exact default sequence 5 ms * 2^n, capped at 1000 s from the 19th failure", () => {
    const rl = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const delays = Array.from({ length: 21 }, () => rl.when("k"));
    expect(delays).toEqual([
      5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 20480, 40960, 81920, 163840, 327680, 655360,
      1_000_000, 1_000_000, 1_000_000,
    ]);
    // Waits before reaching the cap: 5 ms * (2^18 - 1) ~= 1310.7 s.
    expect(delays.slice(0, 18).reduce((a, b) => a + b, 0)).toBe(5 * (2 ** 18 - 1));
    expect(rl.numRequeues("k")).toBe(21);
  });

  it("keeps counts per item and forgets them", () => {
    const rl = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    rl.when("a");
    rl.when("a");
    expect(rl.when("b")).toBe(1);
    expect(rl.numRequeues("a")).toBe(2);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
    expect(rl.when("a")).toBe(1);
  });

  it("is overflow-safe: thousands of failures still return the cap", () => {
    const rl = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < 5000; i++) last = rl.when("k");
    expect(last).toBe(1_000_000);
    const huge = new ItemExponentialFailureRateLimiter<string>(1, Number.MAX_VALUE);
    for (let i = 0; i < 1100; i++) last = huge.when("k");
    expect(last).toBe(Number.MAX_VALUE);
  });

  it("rejects bad arguments", () => {
    expect(() => new ItemExponentialFailureRateLimiter(-1, 10)).toThrow(RangeError);
    expect(() => new ItemExponentialFailureRateLimiter(1, Number.NaN)).toThrow(RangeError);
  });
});

describe("BucketRateLimiter", () => {
  it("lets a burst through, then goes into debt: the 200th of 200 instant failures waits 10 s", () => {
    const clock = new FakeClock(0);
    const rl = new BucketRateLimiter<string>(10, 100, clock);
    const delays = Array.from({ length: 200 }, (_, i) => rl.when(`k${i}`));
    expect(delays.slice(0, 100).every((d) => d === 0)).toBe(true);
    expect(delays[100]).toBeCloseTo(100, 6);
    expect(delays[199]).toBeCloseTo(10_000, 6);
  });

  it("refills at qps up to burst as the clock moves", async () => {
    const clock = new FakeClock(0);
    const rl = new BucketRateLimiter<string>(10, 2, clock);
    expect(rl.when("a")).toBe(0);
    expect(rl.when("a")).toBe(0);
    expect(rl.when("a")).toBeCloseTo(100, 6);
    await clock.advance(10_000); // refills to burst (2), not to 100
    expect(rl.when("a")).toBe(0);
    expect(rl.when("a")).toBe(0);
    expect(rl.when("a")).toBeCloseTo(100, 6);
    expect(rl.numRequeues("a")).toBe(0);
  });

  it("rejects bad arguments and treats Infinity qps as unlimited", () => {
    expect(() => new BucketRateLimiter(0, 1)).toThrow(RangeError);
    expect(() => new BucketRateLimiter(1, 0)).toThrow(RangeError);
    const rl = new BucketRateLimiter<string>(Number.POSITIVE_INFINITY, 1, new FakeClock(0));
    for (let i = 0; i < 10; i++) expect(rl.when("a")).toBe(0);
  });
});

describe("ItemFastSlowRateLimiter", () => {
  it("returns fast for the first maxFastAttempts, then slow; forget resets", () => {
    const rl = new ItemFastSlowRateLimiter<string>(10, 5000, 3);
    expect([rl.when("a"), rl.when("a"), rl.when("a"), rl.when("a"), rl.when("a")]).toEqual([
      10, 10, 10, 5000, 5000,
    ]);
    expect(rl.numRequeues("a")).toBe(5);
    rl.forget("a");
    expect(rl.when("a")).toBe(10);
  });
});

describe("MaxOfRateLimiter", () => {
  it("asks every limiter (the bucket spends tokens) and returns the maximum", () => {
    const clock = new FakeClock(0);
    const bucket = new BucketRateLimiter<string>(1, 1, clock);
    const exp = new ItemExponentialFailureRateLimiter<string>(100, 1000);
    const rl = new MaxOfRateLimiter<string>(exp, bucket);
    expect(rl.when("a")).toBe(100); // exp 100, bucket 0 (token spent)
    expect(rl.when("a")).toBeCloseTo(1000, 6); // exp 200, bucket in debt 1 s
    expect(rl.numRequeues("a")).toBe(2);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
    expect(() => new MaxOfRateLimiter()).toThrow(RangeError);
  });
});

describe("WithMaxWaitRateLimiter", () => {
  it("clamps the inner delay", () => {
    const rl = new WithMaxWaitRateLimiter<string>(
      new ItemExponentialFailureRateLimiter<string>(100, 100_000),
      350,
    );
    expect([rl.when("a"), rl.when("a"), rl.when("a"), rl.when("a")]).toEqual([100, 200, 350, 350]);
    expect(rl.numRequeues("a")).toBe(4);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
  });
});

describe("default limiters", () => {
  it("defaultControllerRateLimiter = max(exp 5 ms..1000 s, bucket 10 qps burst 100)", () => {
    const clock = new FakeClock(0);
    const rl = defaultControllerRateLimiter<string>(clock);
    expect(rl.when("a")).toBe(5);
    expect(rl.when("a")).toBe(10);
    // Spend the rest of the burst on other keys: 98 more tokens, then debt.
    for (let i = 0; i < 98; i++) rl.when(`other${i}`);
    // 101st token: bucket debt 100 ms > exp 5 ms for a fresh key.
    expect(rl.when("fresh")).toBeCloseTo(100, 6);
  });

  it("defaultItemBasedRateLimiter starts at 1 ms", () => {
    const rl = defaultItemBasedRateLimiter<string>();
    expect([rl.when("a"), rl.when("a"), rl.when("a")]).toEqual([1, 2, 4]);
  });
});
