import { afterEach, describe, expect, it } from "vitest";
import { AlreadyRunError } from "../../../src/apimachinery/lifecycle.js";
import { FakeClock } from "../../../src/clock/index.js";
import {
  formatMicroTime,
  InMemoryLeaseStore,
  InMemoryLock,
  LeaderElector,
  leaseDurationSeconds,
  leaseSpecToRecord,
  recordToLeaseSpec,
} from "../../../src/leaderelection/index.js";
import { type Candidate, seconds, startCandidate } from "./candidate.js";

const T0 = Date.UTC(2026, 0, 1);
let running: Candidate[] = [];

afterEach(async () => {
  for (const c of running) c.link.setMode("ok");
  await Promise.all(running.map((c) => c.elector.stop()));
  running = [];
});

function start(...args: Parameters<typeof startCandidate>): Candidate {
  const c = startCandidate(...args);
  running.push(c);
  return c;
}

/** Puts a Lease written by someone else (a "ghost") into the store, as if left behind by a dead process. */
async function ghostLease(
  store: InMemoryLeaseStore,
  holder: string,
  leaseDurationSeconds: number,
  renewedAt: number,
) {
  await store.create({
    metadata: { name: "lock", namespace: "default" },
    spec: recordToLeaseSpec({
      holderIdentity: holder,
      leaseDurationSeconds,
      acquireTime: formatMicroTime(renewedAt),
      renewTime: formatMicroTime(renewedAt),
      leaderTransitions: 4,
    }),
  });
}

describe("LeaderElector config validation (NewLeaderElector)", () => {
  const lock = new InMemoryLock(new InMemoryLeaseStore(), { namespace: "n", name: "l", identity: "a" });
  const callbacks = { onStartedLeading: () => {}, onStoppedLeading: () => {} };
  const cases: Array<[string, object, RegExp]> = [
    [
      "leaseDurationMs <= renewDeadlineMs",
      { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 },
      /leaseDurationMs must be greater/,
    ],
    [
      "renewDeadlineMs <= 1.2 x retryPeriodMs",
      { renewDeadlineMs: 2_400, retryPeriodMs: 2_000 },
      /JitterFactor/,
    ],
    ["zero retryPeriodMs", { retryPeriodMs: 0 }, /retryPeriodMs must be greater than zero/],
    ["negative leaseDurationMs", { leaseDurationMs: -1 }, /leaseDurationMs must be greater than zero/],
    ["missing onStoppedLeading", { callbacks: { onStartedLeading: () => {} } }, /OnStoppedLeading/],
  ];
  for (const [name, override, message] of cases) {
    it(`rejects ${name}`, () => {
      expect(() => new LeaderElector({ lock, callbacks, ...override } as never)).toThrow(message);
    });
  }

  it("fills in the 15 s / 10 s / 2 s defaults", () => {
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = new LeaderElector({ lock, callbacks }).config;
    expect([leaseDurationMs, renewDeadlineMs, retryPeriodMs]).toEqual([15_000, 10_000, 2_000]);
  });
});

describe("LeaderElector", () => {
  it("the first candidate creates the Lease and leads; the record is client-go's", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.log).toEqual(["new-leader:a", "started@0s"]);
    const record = leaseSpecToRecord(store.peek("default", "lock")?.spec);
    expect(record).toEqual({
      holderIdentity: "a",
      leaseDurationSeconds: 15,
      acquireTime: "2026-01-01T00:00:00.000000Z",
      renewTime: "2026-01-01T00:00:00.000000Z",
      leaderTransitions: 0,
    });
  });

  it("accepts a leaseDurationMs in any milliseconds and writes leaseDurationSeconds rounded up", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    start(store, clock, "a", { leaseDurationMs: 2_500, renewDeadlineMs: 2_000, retryPeriodMs: 1_000 });
    await clock.advance(0);
    expect(leaseSpecToRecord(store.peek("default", "lock")?.spec).leaseDurationSeconds).toBe(3);
    expect([leaseDurationSeconds(15_000), leaseDurationSeconds(15_001), leaseDurationSeconds(1)]).toEqual([
      15, 16, 1,
    ]);
  });

  it("renews every RetryPeriod, keeping acquireTime and leaderTransitions", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    start(store, clock, "a");
    await clock.advance(2_000);
    let record = leaseSpecToRecord(store.peek("default", "lock")?.spec);
    expect(record.renewTime).toBe("2026-01-01T00:00:02.000000Z");
    await clock.advance(2_000);
    record = leaseSpecToRecord(store.peek("default", "lock")?.spec);
    expect(record.renewTime).toBe("2026-01-01T00:00:04.000000Z");
    expect(record.acquireTime).toBe("2026-01-01T00:00:00.000000Z");
    expect(record.leaderTransitions).toBe(0);
  });

  it("a standby never takes a lease that is being renewed, and reports the leader it sees", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    const b = start(store, clock, "b", {}, 7);
    await clock.advance(120_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(b.elector.isLeader()).toBe(false);
    expect(b.elector.getLeader()).toBe("a");
    expect(b.log).toEqual(["new-leader:a"]);
  });

  it("judges expiry on its own clock from when it first saw the record, not from the writer's renewTime", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    // Renewed "an hour ago" by the writer's clock: a wall-clock comparison would take it at once.
    await ghostLease(store, "ghost", 15, T0 - 3_600_000);
    const b = start(store, clock, "b");
    await clock.advance(14_999);
    expect(b.elector.isLeader()).toBe(false);
    await clock.advance(15_000 + 4_400);
    expect(b.elector.isLeader()).toBe(true);
    const record = leaseSpecToRecord(store.peek("default", "lock")?.spec);
    expect(record.holderIdentity).toBe("b");
    expect(record.leaderTransitions).toBe(5);
    expect(Date.parse(record.acquireTime)).toBeGreaterThanOrEqual(T0 + 15_000);
  });

  it("uses the holder-written leaseDurationSeconds, not its own config", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    await ghostLease(store, "ghost", 40, T0);
    const b = start(store, clock, "b");
    await clock.advance(39_000);
    expect(b.elector.isLeader()).toBe(false);
    await clock.advance(5_000);
    expect(b.elector.isLeader()).toBe(true);
  });

  it("takes a released lease (empty holder) at once", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    await ghostLease(store, "", 1, T0);
    const b = start(store, clock, "b");
    await clock.advance(0);
    expect(b.elector.isLeader()).toBe(true);
  });

  it("restarts its expiry timer whenever the record changes (a renewing holder is never expired)", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    const b = start(store, clock, "b", {}, 3);
    await clock.advance(10_000);
    a.link.setMode("fail"); // a stops renewing at 10 s; its last write landed at 10 s
    await clock.advance(14_000); // t = 24 s: b saw the last change at >= 10 s, so it must still wait
    expect(b.elector.isLeader()).toBe(false);
    await clock.advance(10_000); // t = 34 s > 10 + 4.4 + 15 + 4.4
    expect(b.elector.isLeader()).toBe(true);
  });

  it("a leader that cannot renew stops at renewDeadlineMs, before anyone can take its lease", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    const b = start(store, clock, "b", {}, 5);
    await clock.advance(4_000); // a's last successful renewal started at 4 s
    a.link.setMode("fail");
    await clock.advance(9_999);
    expect(a.elector.isLeader()).toBe(true);
    await clock.advance(1); // 14 s = 4 s + renewDeadlineMs
    expect(a.elector.isLeader()).toBe(false);
    expect(a.signal?.aborted).toBe(true);
    expect(a.log.slice(-2)).toEqual(["aborted@14s", "stopped@14s"]);
    expect(b.elector.isLeader()).toBe(false); // b cannot take it before 4 s + 15 s
    await clock.advance(30_000);
    expect(b.elector.isLeader()).toBe(true);
    await a.done; // a lost leader's run ends
  });

  it("measures renewDeadlineMs from when the last good renewal was sent, so a slow answer cannot stretch it", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    const b = start(store, clock, "b", {}, 11);
    await clock.advance(4_000);
    // The renewal sent at 6 s lands at once, but its answer takes 4.5 s; then the link dies.
    const delays = [0, 4_500];
    a.link.latency = () => delays.shift() ?? 0;
    await clock.advance(2_000 + 4_500);
    expect(seconds(clock)).toBe(10.5);
    a.link.setMode("fail");
    await clock.advance(5_499);
    expect(a.elector.isLeader()).toBe(true);
    await clock.advance(1); // 16 s = 6 s (sent) + renewDeadlineMs; client-go's window would run to 22.5 s
    expect(a.elector.isLeader()).toBe(false);
    await clock.advance(30_000);
    expect(b.elector.isLeader()).toBe(true);
    const started = Number(b.log.find((l) => l.startsWith("started@"))!.slice(8, -1));
    expect(started).toBeGreaterThanOrEqual(6 + 15); // b waited a full lease after a's last write
  });

  it("stops at renewDeadlineMs even when the renewal call hangs and never answers", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(2_000);
    a.link.setMode("hang");
    await clock.advance(9_999);
    expect(a.elector.isLeader()).toBe(true);
    await clock.advance(1);
    expect(a.elector.isLeader()).toBe(false);
    expect(seconds(clock)).toBe(12);
  });

  it("does not lead on a success that arrived after its own renew deadline (slow network)", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const starts: number[] = [];
    const a = start(store, clock, "a", {
      callbacks: { onStartedLeading: () => void starts.push(seconds(clock)), onStoppedLeading: () => {} },
    });
    let calls = 0;
    a.link.latency = () => (calls++ < 4 ? 6_000 : 0); // first attempt: get + create, 6 s each way = 24 s
    await clock.advance(24_000);
    expect(store.peek("default", "lock")?.spec.holderIdentity).toBe("a");
    expect(a.elector.isLeader()).toBe(false);
    await clock.advance(4_400);
    expect(a.elector.isLeader()).toBe(true);
    expect(starts).toHaveLength(1);
    expect(starts[0]).toBeGreaterThan(24);
  });

  it("releaseOnCancel writes an empty holder with a 1 s lease, and a standby takes over at its next try", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a", { releaseOnCancel: true });
    await clock.advance(0);
    const b = start(store, clock, "b", {}, 9);
    await clock.advance(6_000);
    const stopping = a.elector.stop();
    await clock.advance(0);
    await stopping;
    const released = leaseSpecToRecord(store.peek("default", "lock")?.spec);
    expect(released).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1, leaderTransitions: 0 });
    expect(a.log.slice(-2)).toEqual(["aborted@6s", "stopped@6s"]);
    await clock.advance(4_400);
    expect(b.elector.isLeader()).toBe(true);
    expect(leaseSpecToRecord(store.peek("default", "lock")?.spec).leaderTransitions).toBe(1);
  });

  it("without releaseOnCancel a stopped leader leaves its lease to expire", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    const stopping = a.elector.stop();
    await clock.advance(0);
    await stopping;
    expect(store.peek("default", "lock")?.spec.holderIdentity).toBe("a");
  });

  it("calls onStoppedLeading once even if it never led; run twice is refused; stop is idempotent", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    await ghostLease(store, "ghost", 15, T0);
    const b = start(store, clock, "b");
    await expect(b.elector.run()).rejects.toBeInstanceOf(AlreadyRunError);
    await clock.advance(1_000);
    await b.elector.stop();
    await b.elector.stop();
    expect(b.log).toEqual(["new-leader:ghost", "stopped@1s"]);
  });

  it("reports lock errors to onError, but not the expected races (409 Conflict, AlreadyExists)", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    // Two candidates start together: one creates the Lease, the other loses the race (AlreadyExists/Conflict).
    const a = start(store, clock, "a");
    const b = start(store, clock, "b");
    await clock.advance(10_000);
    expect([a.errors, b.errors]).toEqual([[], []]);
    // A broken link is not a race: every failed call is reported, and the elector keeps trying.
    b.link.setMode("fail");
    await clock.advance(5_000);
    expect(b.errors.length).toBeGreaterThan(0);
    expect(b.errors[0]).toMatch(/^get lease: connect ECONNREFUSED/);
  });

  it("a throwing onNewLeader (or onStartedLeading) is reported and does not take the elector down", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a", {
      callbacks: {
        onStartedLeading: () => {
          throw new Error("started broke");
        },
        onStoppedLeading: () => {},
        onNewLeader: () => {
          throw new Error("new leader broke");
        },
      },
    });
    await clock.advance(0);
    await clock.advance(6_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.errors).toEqual([
      "onNewLeader callback: new leader broke",
      "onStartedLeading callback: started broke",
    ]);
  });

  it("health check fails when the observed record names us but was not renewed for leaseDurationMs + tolerance", async () => {
    const clock = new FakeClock();
    const store = new InMemoryLeaseStore();
    const a = start(store, clock, "a");
    await clock.advance(0);
    expect(a.elector.check(20_000)).toBeUndefined();
    a.link.setMode("hang");
    await clock.advance(30_000);
    expect(a.elector.check(20_000)).toBeUndefined(); // 30 s <= 15 s + 20 s
    await clock.advance(6_000);
    expect(a.elector.check(20_000)?.message).toMatch(
      /failed election to renew leadership on lease default\/lock/,
    );
  });
});
