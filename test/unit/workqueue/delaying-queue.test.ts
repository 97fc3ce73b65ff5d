import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { DelayingQueue } from "../../../src/workqueue/index.js";

function setup() {
  const clock = new FakeClock(0);
  const q = new DelayingQueue<string>({ clock });
  return { clock, q };
}

describe("DelayingQueue", () => {
  it("adds an item only once its delay has passed", async () => {
    const { clock, q } = setup();
    q.addAfter("a", 100);
    expect(q.len()).toBe(0);
    expect(q.waitingLen()).toBe(1);
    await clock.advance(99);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect(q.waitingLen()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("adds immediately for a delay <= 0 and rejects NaN", () => {
    const { q } = setup();
    q.addAfter("a", 0);
    q.addAfter("b", -5);
    expect(q.state().queue).toEqual(["a", "b"]);
    expect(() => q.addAfter("c", Number.NaN)).toThrow(RangeError);
  });

  it("fires items in ready-time order, equal times in insertion order", async () => {
    const { clock, q } = setup();
    q.addAfter("late", 300);
    q.addAfter("early", 100);
    q.addAfter("mid1", 200);
    q.addAfter("mid2", 200);
    await clock.advance(1000);
    expect(q.state().queue).toEqual(["early", "mid1", "mid2", "late"]);
  });

  it("keeps the EARLIEST ready time when an item is added again while waiting", async () => {
    const { clock, q } = setup();
    q.addAfter("a", 500);
    q.addAfter("a", 100); // earlier: wins
    q.addAfter("a", 900); // later: ignored
    expect(q.waitingItems()).toEqual([{ item: "a", readyAt: 100 }]);
    await clock.advance(100);
    expect(q.len()).toBe(1);
    await clock.advance(1000);
    expect(q.len()).toBe(1); // fired once only
  });

  it("arms a single timer, for the head of the heap", async () => {
    const { clock, q } = setup();
    for (let i = 1; i <= 50; i++) q.addAfter(`k${i}`, i * 10);
    expect(clock.pendingTimers()).toBe(1);
    expect(clock.nextDue()).toBe(10);
    q.addAfter("first", 5);
    expect(clock.pendingTimers()).toBe(1);
    expect(clock.nextDue()).toBe(5);
  });

  it("lets an item wait while it is also queued; the later fire is deduplicated", async () => {
    const { clock, q } = setup();
    q.add("a");
    q.addAfter("a", 50);
    await clock.advance(50);
    expect(q.len()).toBe(1);
  });

  it("shutDown discards waiting items and stops the timer", async () => {
    const { clock, q } = setup();
    q.addAfter("a", 100);
    q.addAfter("b", 200);
    q.shutDown();
    expect(clock.pendingTimers()).toBe(0);
    expect(q.waitingLen()).toBe(0);
    q.addAfter("c", 10); // ignored after shutdown
    expect(clock.pendingTimers()).toBe(0);
    await clock.advance(1000);
    expect(q.len()).toBe(0);
  });

  it("shutDownWithDrain also discards waiting items and stops the timer", async () => {
    const { clock, q } = setup();
    q.add("x");
    const got = await q.get();
    q.addAfter("a", 100);
    const drained = q.shutDownWithDrain();
    expect(clock.pendingTimers()).toBe(0);
    expect(q.waitingLen()).toBe(0);
    q.done(got.item as string);
    await drained;
    await clock.advance(1000);
    expect(q.len()).toBe(0);
  });

  it("waits longer than Node's 24.8-day timer limit correctly", async () => {
    const { clock, q } = setup();
    const days40 = 40 * 24 * 3600 * 1000;
    q.addAfter("a", days40);
    await clock.advance(days40 - 1);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
  });
});
