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
