import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { ItemExponentialFailureRateLimiter, RateLimitingQueue } from "../../../src/workqueue/index.js";

describe("RateLimitingQueue", () => {
  it("addRateLimited waits the limiter's growing delay; forget resets it without touching the queue", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>({
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(100, 10_000),
    });
    q.addRateLimited("a"); // 100 ms
    await clock.advance(99);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    const r = await q.get();
    q.addRateLimited("a"); // 200 ms
    q.done(r.item as string);
    await clock.advance(199);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect(q.numRequeues("a")).toBe(2);
    q.forget("a");
    expect(q.numRequeues("a")).toBe(0);
    expect(q.len()).toBe(1); // still queued: forget only clears the limiter
    q.shutDown();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("uses the default controller limiter on its own clock when none is given", async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>({ clock });
    q.addRateLimited("a");
    expect(q.waitingItems()).toEqual([{ item: "a", readyAt: 5 }]);
    q.addRateLimited("b");
    q.addRateLimited("b");
    expect(q.waitingItems()).toEqual([
      { item: "a", readyAt: 5 },
      { item: "b", readyAt: 5 }, // second request (10 ms) is later: the earliest is kept
    ]);
    expect(q.numRequeues("b")).toBe(2);
    q.shutDown();
  });
});
