import { describe, expect, it } from "vitest";
import { waitForCacheSync } from "../../../src/cache/index.js";
import { FakeClock } from "../../../src/clock/index.js";

describe("waitForCacheSync", () => {
  it("resolves true at the first poll after all functions are true", async () => {
    const clock = new FakeClock(0);
    let ready = false;
    let resolvedAt: number | undefined;
    void waitForCacheSync([() => ready], { clock }).then((ok) => {
      if (ok) resolvedAt = clock.now();
    });
    await clock.advance(250);
    ready = true;
    await clock.advance(100);
    expect(resolvedAt).toBe(300);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("resolves false when aborted, leaving no timer", async () => {
    const clock = new FakeClock(0);
    const ac = new AbortController();
    const p = waitForCacheSync([() => false], { clock, signal: ac.signal });
    await clock.advance(150);
    ac.abort();
    await expect(p).resolves.toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("rejects non-functions with a clear error", async () => {
    await expect(waitForCacheSync([true as unknown as () => boolean])).rejects.toThrow(/\(\) => boolean/);
  });
});
