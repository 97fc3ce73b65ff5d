import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { InMemoryMetricsProvider, metricsProvider, RateLimitingQueue } from "../../../src/workqueue/index.js";

describe("workqueue metrics", () => {
  it("records depth, adds, queue latency, work duration, retries and in-flight work for a named queue", async () => {
    const clock = new FakeClock(0);
    const provider = new InMemoryMetricsProvider();
    const q = new RateLimitingQueue<string>({ name: "foos", clock, metricsProvider: provider });
    q.add("a");
    q.add("b");
    q.add("a"); // dedup: not an add
    expect(provider.snapshot("foos")).toMatchObject({ depth: 2, adds: 2 });
    await clock.advance(300);
    const a = await q.get();
    expect(provider.snapshot("foos")?.depth).toBe(1);
    expect(provider.snapshot("foos")?.queueDuration).toEqual({ count: 1, sum: 0.3, min: 0.3, max: 0.3 });
    await clock.advance(1200); // now 1500: the 500 ms refresh ran at 500, 1000 and 1500
    expect(provider.snapshot("foos")?.unfinishedWorkSeconds).toBeCloseTo(1.2, 6);
    expect(provider.snapshot("foos")?.longestRunningProcessorSeconds).toBeCloseTo(1.2, 6);
    q.done(a.item as string);
    expect(provider.snapshot("foos")?.workDuration).toEqual({ count: 1, sum: 1.2, min: 1.2, max: 1.2 });
    q.addRateLimited("c");
    q.addAfter("d", 10);
    expect(provider.snapshot("foos")?.retries).toBe(2);
    await clock.advance(600);
    expect(provider.snapshot("foos")).toMatchObject({
      unfinishedWorkSeconds: 0,
      longestRunningProcessorSeconds: 0,
    });
    expect(provider.names()).toEqual(["foos"]);
    q.shutDown();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("records nothing for unnamed queues and arms no metrics timer", () => {
    const clock = new FakeClock(0);
    const provider = new InMemoryMetricsProvider();
    const q = new RateLimitingQueue<string>({ clock, metricsProvider: provider });
    q.add("a");
    expect(provider.names()).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("named queues use the global in-memory provider by default", () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>({ name: "global-default-test", clock });
    q.add("x");
    const global = metricsProvider() as InMemoryMetricsProvider;
    expect(global.snapshot("global-default-test")?.adds).toBe(1);
    q.shutDown();
  });
});
