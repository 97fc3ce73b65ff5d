import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import {
  ConsistentlyError,
  consistently,
  EventuallyTimeoutError,
  eventually,
} from "../../../src/workbook/grading/index.js";

describe("eventually", () => {
  it("returns the first passing value, polling at the interval", async () => {
    const clock = new FakeClock(0);
    const seen: number[] = [];
    const result = eventually(
      () => {
        seen.push(clock.now());
        return clock.now() >= 250 ? "ready" : false;
      },
      { clock, interval: 100, timeout: 1000 },
    );
    await clock.advance(300);
    await expect(result).resolves.toBe("ready");
    expect(seen).toEqual([0, 100, 200, 300]);
  });

  it("treats throws and rejections as not yet", async () => {
    const clock = new FakeClock(0);
    let calls = 0;
    const result = eventually(
      async () => {
        calls++;
        if (calls < 3) throw new Error(`not yet ${calls}`);
        return calls;
      },
      { clock, interval: 10 },
    );
    await clock.advance(20);
    await expect(result).resolves.toBe(3);
  });

  it("times out with the last reason and attempt count, evaluating once more at the deadline", async () => {
    const clock = new FakeClock(0);
    const times: number[] = [];
    const result = eventually(
      () => {
        times.push(clock.now());
        throw new Error(`still ${clock.now()}`);
      },
      { clock, interval: 400, timeout: 1000, description: "the Deployment is ready" },
    );
    const caught = result.catch((e: unknown) => e);
    await clock.advance(1000);
    const err = await caught;
    expect(err).toBeInstanceOf(EventuallyTimeoutError);
    expect((err as EventuallyTimeoutError).message).toBe(
      "the Deployment is ready did not happen within 1000 ms (4 attempts); last: still 1000",
    );
    expect(times).toEqual([0, 400, 800, 1000]);
  });

  it("rejects bad options and stops when aborted", async () => {
    await expect(eventually(() => true, { interval: 0 })).rejects.toThrow(/interval must be/);
    await expect(eventually(() => true, { timeout: -1 })).rejects.toThrow(/timeout must be/);
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const result = eventually(() => false, { clock, interval: 100, signal: controller.signal }).catch(
      (e: Error) => e,
    );
    await clock.advance(100);
    controller.abort();
    expect(((await result) as Error).message).toMatch(/aborted/);
  });
});

describe("consistently", () => {
  it("passes when the condition holds for the whole window, checking at its end too", async () => {
    const clock = new FakeClock(0);
    const times: number[] = [];
    const result = consistently(
      () => {
        times.push(clock.now());
        return true;
      },
      { clock, interval: 300, duration: 1000 },
    );
    await clock.advance(1000);
    await expect(result).resolves.toBe(5);
    expect(times).toEqual([0, 300, 600, 900, 1000]);
  });

  it("fails at the first violation, saying when and why", async () => {
    const clock = new FakeClock(0);
    let children = 1;
    const result = consistently(
      () => {
        if (children > 1) throw new Error(`${children} children`);
      },
      { clock, interval: 100, duration: 2000, description: "one child per parent" },
    ).catch((e: unknown) => e);
    await clock.advance(250);
    children = 2;
    await clock.advance(100);
    const err = await result;
    expect(err).toBeInstanceOf(ConsistentlyError);
    expect((err as Error).message).toBe("one child per parent stopped holding after 300 ms: 2 children");
  });

  it("counts false as a violation", async () => {
    await expect(consistently(() => false, { duration: 0 })).rejects.toThrow(/returned false/);
  });
});
