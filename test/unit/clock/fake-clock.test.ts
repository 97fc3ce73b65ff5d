import { describe, expect, it } from "vitest";
import { FakeClock, MAX_NODE_TIMER_MS, RealClock } from "../../../src/clock/index.js";

describe("FakeClock", () => {
  it("fires timers in due order and only when time reaches them", async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimer(30, () => fired.push("c"));
    clock.setTimer(10, () => fired.push("a"));
    clock.setTimer(20, () => fired.push("b"));
    await clock.advance(15);
    expect(fired).toEqual(["a"]);
    expect(clock.now()).toBe(15);
    await clock.advance(100);
    expect(fired).toEqual(["a", "b", "c"]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("sleep resolves true when time passes and false when aborted", async () => {
    const clock = new FakeClock(0);
    const done = clock.sleep(1000);
    await clock.advance(999);
    let settled = false;
    void done.then(() => {
      settled = true;
    });
    await clock.advance(0);
    expect(settled).toBe(false);
    await clock.advance(1);
    await expect(done).resolves.toBe(true);

    const ac = new AbortController();
    const aborted = clock.sleep(1000, ac.signal);
    ac.abort();
    await expect(aborted).resolves.toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("a forgotten await cannot corrupt the timeline: advances run in call order, time never goes back", async () => {
    const clock = new FakeClock(0);
    const fired: Array<[string, number]> = [];
    for (const [name, at] of [
      ["a", 100],
      ["b", 250],
      ["c", 400],
    ] as const) {
      clock.setTimer(at, () => fired.push([name, clock.now()]));
    }
    const seen: number[] = [];
    // No await between them: before the queue, the second one computed its window from the old time.
    void clock.advance(200);
    void clock.advance(200);
    expect(clock.advancing).toBe(true);
    const stepped = clock.step();
    void clock.advance(50).then(() => seen.push(clock.now()));
    await clock.idle();
    expect(clock.advancing).toBe(false);
    expect(fired).toEqual([
      ["a", 100],
      ["b", 250],
      ["c", 400],
    ]);
    expect(await stepped).toBe(false);
    expect(seen).toEqual([450]);
    expect(clock.now()).toBe(450);
  });

  it("step moves to the next timer; a throwing timer fails its advance but not the next one", async () => {
    const clock = new FakeClock(0);
    clock.setTimer(10, () => {
      throw new Error("boom");
    });
    clock.setTimer(20, () => undefined);
    await expect(clock.step()).rejects.toThrow("boom");
    expect(clock.now()).toBe(10);
    expect(await clock.step()).toBe(true);
    expect(clock.now()).toBe(20);
    expect(await clock.step()).toBe(false);
  });

  it("runs timers created by callbacks within the same advance", async () => {
    const clock = new FakeClock(0);
    const times: number[] = [];
    const tick = () => {
      times.push(clock.now());
      if (times.length < 5) clock.setTimer(100, tick);
    };
    clock.setTimer(100, tick);
    await clock.advance(1000);
    expect(times).toEqual([100, 200, 300, 400, 500]);
  });
});

describe("RealClock", () => {
  it("does not fire a timer longer than Node's 2^31-1 ms limit early", async () => {
    const clock = new RealClock();
    let fired = false;
    const timer = clock.setTimer(MAX_NODE_TIMER_MS * 2, () => {
      fired = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(false);
    expect(timer.stop()).toBe(true);
  });

  it("fires short timers and reports stop() after firing as false", async () => {
    const clock = new RealClock();
    let fired = false;
    const timer = clock.setTimer(1, () => {
      fired = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(true);
    expect(timer.stop()).toBe(false);
  });
});
