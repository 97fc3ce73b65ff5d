import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FakeClock, flushMicrotasks } from "../../../src/clock/index.js";
import {
  createSystemdReadyMatcher,
  SystemdReadyWaitStrategy,
} from "../../../src/control-plane/cluster/kind/systemd-wait.js";

describe("waiting for systemd in the kind node's raw (TTY) log", () => {
  it("matches kind's pattern across chunk boundaries and through ANSI colour codes", () => {
    const feed = createSystemdReadyMatcher();
    expect(feed("INFO: starting init\r\n[  OK  ] Reached tar")).toBe(false);
    expect(feed("get \u001b[0;1;39mmulti-user.target\u001b[0m - Multi-User System")).toBe(false); // line not complete
    expect(feed(".\r\n")).toBe(true);
    expect(feed("anything")).toBe(true);
  });

  it("accepts the older wording and cgroup v1, and ignores other targets", () => {
    expect(createSystemdReadyMatcher()("Reached target Multi-User System.\n")).toBe(true);
    expect(createSystemdReadyMatcher()("INFO: detected cgroup v1\n")).toBe(true);
    const feed = createSystemdReadyMatcher();
    expect(feed("Reached target Basic System.\nINFO: detected cgroup v2\n")).toBe(false);
  });

  function fakeContainer(stream: PassThrough) {
    return { logs: async () => stream } as never;
  }

  it("resolves when the line arrives on the raw stream and stops reading", async () => {
    const stream = new PassThrough();
    const wait = new SystemdReadyWaitStrategy(new FakeClock()).waitUntilReady(fakeContainer(stream));
    await flushMicrotasks();
    stream.write("INFO: starting init\n");
    stream.write("[  OK  ] Reached target multi-user.target - Multi-User System.\n");
    await expect(wait).resolves.toBeUndefined();
    expect(stream.destroyed).toBe(true);
  });

  it("times out on the clock with a clear error, and fails if the log ends first", async () => {
    const clock = new FakeClock();
    const strategy = new SystemdReadyWaitStrategy(clock).withStartupTimeout(30_000);
    expect(strategy.isStartupTimeoutSet()).toBe(true);
    expect(strategy.getStartupTimeout()).toBe(30_000);
    const stream = new PassThrough();
    const wait = strategy.waitUntilReady(fakeContainer(stream));
    const outcome = wait.catch((e: Error) => e);
    await flushMicrotasks();
    stream.write("still booting\n");
    await clock.advance(29_999);
    await clock.advance(1);
    expect(((await outcome) as Error).message).toMatch(/within 30000 ms/);

    const ended = new PassThrough();
    const wait2 = new SystemdReadyWaitStrategy(new FakeClock()).waitUntilReady(fakeContainer(ended));
    await flushMicrotasks();
    ended.end("INFO: starting init\n");
    await expect(wait2).rejects.toThrow(/log ended before systemd was up/);
  });
});
