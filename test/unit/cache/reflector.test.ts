import { afterEach, describe, expect, it } from "vitest";
import { AlreadyRunError } from "../../../src/apimachinery/lifecycle.js";
import { seededRandom } from "../../../src/apimachinery/wait/random.js";
import { Reflector, type ReflectorOptions } from "../../../src/cache/reflector.js";
import type { ReflectorStore } from "../../../src/cache/store.js";
import { FakeClock, flushMicrotasks } from "../../../src/clock/fake-clock.js";
import { FakeListWatch, statusError, type TestObject } from "./fake-list-watch.js";

class RecordingStore implements ReflectorStore<TestObject> {
  ops: string[] = [];
  throwOn: string | undefined;
  private rec(op: string, o: TestObject) {
    if (this.throwOn === o.metadata?.name) throw new Error(`store refuses ${o.metadata?.name}`);
    this.ops.push(`${op} ${o.metadata?.name}@${o.metadata?.resourceVersion}`);
  }
  add(o: TestObject) {
    this.rec("add", o);
  }
  update(o: TestObject) {
    this.rec("update", o);
  }
  delete(o: TestObject) {
    this.rec("delete", o);
  }
  replace(list: TestObject[], rv: string) {
    this.ops.push(`replace ${list.length}@${rv}`);
  }
  resync() {
    this.ops.push("resync");
  }
}

interface Rig {
  clock: FakeClock;
  lw: FakeListWatch;
  store: RecordingStore;
  reflector: Reflector<TestObject>;
  errors: unknown[];
  stop: () => Promise<void>;
}

const running: Rig[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function startRig(options: ReflectorOptions = {}, setup?: (lw: FakeListWatch) => void): Promise<Rig> {
  const clock = new FakeClock();
  const lw = new FakeListWatch();
  setup?.(lw);
  const store = new RecordingStore();
  const errors: unknown[] = [];
  const reflector = new Reflector(lw, store, {
    clock,
    random: seededRandom(7),
    onError: (e) => errors.push(e),
    ...options,
  });
  const ac = new AbortController();
  const done = reflector.run(ac.signal);
  await flushMicrotasks();
  const rig: Rig = {
    clock,
    lw,
    store,
    reflector,
    errors,
    stop: async () => {
      ac.abort();
      await done;
    },
  };
  running.push(rig);
  return rig;
}

describe("Reflector", () => {
  it("lists, then watches from the list's resourceVersion and applies events", async () => {
    const { lw, store, reflector } = await startRig({}, (lw) => {
      lw.create("a");
      lw.create("b");
    });
    expect(lw.listCalls[0]).toMatchObject({ resourceVersion: "0", limit: 500 });
    expect(store.ops).toEqual(["replace 2@102"]);
    expect(lw.watchCalls[0]).toMatchObject({ resourceVersion: "102", allowWatchBookmarks: true });
    lw.update("a");
    lw.remove("b");
    expect(store.ops.slice(1)).toEqual(["update a@103", "delete b@104"]);
    expect(reflector.lastSyncResourceVersion()).toBe("104");
    expect(reflector.state()).toBe("watching");
  });

  it("paginates the initial list by 500 and follows continue tokens", async () => {
    const { lw, store } = await startRig({}, (lw) => {
      for (let i = 0; i < 1200; i++) lw.create(`cm-${String(i).padStart(4, "0")}`);
    });
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ["0", 500, undefined],
      [undefined, 500, "1300:500"],
      [undefined, 500, "1300:1000"],
    ]);
    expect(store.ops[0]).toBe("replace 1200@1300");
  });

  it("falls back to one full list at the same RV when a continue page gets 410", async () => {
    const { lw, store } = await startRig({}, (lw) => {
      for (let i = 0; i < 700; i++) lw.create(`cm-${i}`);
      lw.expireContinueTokens = true;
    });
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ["0", 500, undefined],
      [undefined, 500, "800:500"],
      ["0", undefined, undefined],
    ]);
    expect(store.ops[0]).toBe("replace 700@800");
  });

  it("resumes from the last RV after a normal watch end, without relisting or backoff", async () => {
    const { lw, store } = await startRig({}, (lw) => lw.create("a"));
    lw.update("a");
    lw.dropWatches();
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(["101", "102"]);
    lw.update("a");
    expect(store.ops).toEqual(["replace 1@101", "update a@102", "update a@103"]);
  });

  it("treats a watch that closes at once without events as a failure (relist after backoff)", async () => {
    const { lw, clock } = await startRig({ random: () => 0 });
    lw.dropWatches();
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(1);
    await clock.advance(800);
    expect(lw.listCalls).toHaveLength(2);
  });

  it('on 410 relists at the last RV after backoff, then at "" if that RV is gone too', async () => {
    const { lw, store, clock, reflector } = await startRig({ random: () => 0 }, (lw) => lw.create("a"));
    lw.create("b");
    lw.failWatches();
    await flushMicrotasks();
    expect(reflector.state()).toBe("backoff");
    expect(lw.listCalls).toHaveLength(1);
    await clock.advance(800);
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(["0", "102"]);
    expect(lw.listCalls[1]!.limit).toBeUndefined();
    lw.failWatches();
    await flushMicrotasks();
    lw.create("c"); // written during the gap: the reflector never sees its event
    lw.compact();
    await clock.advance(1600);
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(["0", "102", "102", ""]);
    expect(store.ops.filter((o) => o.startsWith("replace"))).toEqual([
      "replace 1@101",
      "replace 2@102",
      "replace 3@103",
    ]);
    expect(reflector.stats().expired).toBeGreaterThanOrEqual(3);
  });

  it("bookmarks advance the RV without touching the store", async () => {
    const { lw, store, reflector } = await startRig({}, (lw) => lw.create("a"));
    lw.bumpRevision(40);
    lw.bookmark();
    expect(reflector.lastSyncResourceVersion()).toBe("141");
    expect(store.ops).toEqual(["replace 1@101"]);
    lw.dropWatches();
    await flushMicrotasks();
    expect(lw.watchCalls.at(-1)!.resourceVersion).toBe("141");
  });

  it("sends watch timeouts uniform in [300, 600) s, reproducible from the seed", async () => {
    const timeouts = async (seed: number) => {
      const { lw } = await startRig({ random: seededRandom(seed) }, (lw) => lw.create("a"));
      for (let i = 0; i < 30; i++) {
        lw.update("a");
        lw.dropWatches();
        await flushMicrotasks();
      }
      return lw.watchCalls.map((w) => w.timeoutSeconds!);
    };
    const first = await timeouts(42);
    expect(first).toHaveLength(31);
    for (const t of first) {
      expect(t).toBeGreaterThanOrEqual(300);
      expect(t).toBeLessThan(600);
    }
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(await timeouts(42)).toEqual(first);
  });

  it("backs off 0.8 s doubling to a 30 s cap between failed lists, and never gives up", async () => {
    const { lw, clock, reflector } = await startRig({ random: () => 0 }, (lw) => {
      lw.listFailures = Array.from({ length: 12 }, () => statusError(500));
    });
    const times: number[] = [clock.now()];
    for (let i = 0; i < 12; i++) {
      const before = lw.listCalls.length;
      while (lw.listCalls.length === before) await clock.step();
      times.push(clock.now());
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 30000, 30000, 30000]);
    expect(reflector.state()).toBe("watching");
    expect(lw.openWatches).toBe(1);
  });

  it("jitter stretches each delay up to 2x", async () => {
    const { lw, clock } = await startRig({ random: () => 0.999 }, (lw) => {
      lw.listFailures = [statusError(500), statusError(500)];
    });
    const t0 = clock.now();
    await clock.step();
    const t1 = clock.now();
    await clock.step();
    expect(t1 - t0).toBeCloseTo(800 * 1.999, 1);
    expect(clock.now() - t1).toBeCloseTo(1600 * 1.999, 1);
    expect(lw.listCalls).toHaveLength(3);
  });

  it("resets the backoff after 2 minutes without failures", async () => {
    const { lw, clock } = await startRig({ random: () => 0 }, (lw) => {
      lw.create("a");
      lw.listFailures = [statusError(500), statusError(500), statusError(500)];
    });
    await clock.advance(800 + 1600 + 3200);
    expect(lw.listCalls).toHaveLength(4);
    lw.update("a");
    lw.failWatches(statusError(500));
    await flushMicrotasks();
    const t = clock.now();
    await clock.step();
    expect(clock.now() - t).toBe(6400);
    await clock.advance(121_000);
    lw.update("a");
    lw.failWatches(statusError(500));
    await flushMicrotasks();
    const t2 = clock.now();
    await clock.step();
    expect(clock.now() - t2).toBe(800);
  });

  it("retries the watch itself (no relist) after 429", async () => {
    const { lw, clock } = await startRig({ random: () => 0 }, (lw) => lw.create("a"));
    lw.update("a");
    lw.failWatches(statusError(429, "TooManyRequests"));
    await clock.advance(800);
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(["101", "102"]);
  });

  it("a store exception is reported and never stops the reflector", async () => {
    const { lw, store, errors, reflector } = await startRig({}, (lw) => lw.create("a"));
    store.throwOn = "bad";
    lw.create("bad");
    lw.create("good");
    expect(errors.some((e) => String(e).includes("store refuses bad"))).toBe(true);
    expect(store.ops.at(-1)).toBe("add good@103");
    expect(reflector.lastSyncResourceVersion()).toBe("103");
  });

  it("the watchdog restarts a silent watch from the last RV", async () => {
    const { lw, clock, reflector } = await startRig({ watchIdleTimeoutMs: 5000 }, (lw) => lw.create("a"));
    await clock.advance(3000);
    lw.update("a");
    await clock.advance(4000);
    expect(lw.watchCalls).toHaveLength(1);
    await clock.advance(1000);
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(["101", "102"]);
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.openWatches).toBe(1);
    expect(reflector.stats().watchdogRestarts).toBe(1);
  });

  it("resyncs the store periodically while watching, if shouldResync agrees", async () => {
    let allow = true;
    const { store, clock } = await startRig({ resyncPeriodMs: 10_000, shouldResync: () => allow });
    await clock.advance(10_000);
    allow = false;
    await clock.advance(10_000);
    allow = true;
    await clock.advance(10_000);
    expect(store.ops.filter((o) => o === "resync")).toHaveLength(2);
  });

  it("runs once: a second run, during or after the first, rejects with AlreadyRunError", async () => {
    const { reflector } = await startRig();
    await expect(reflector.run(new AbortController().signal)).rejects.toBeInstanceOf(AlreadyRunError);
    await reflector.stop();
    await reflector.stop();
    expect(reflector.state()).toBe("stopped");
    await expect(reflector.run()).rejects.toThrow(/can run only once/);
  });

  it("stopping leaves no timers and no open watches, whatever it was doing", async () => {
    const watching = await startRig({ resyncPeriodMs: 5000, watchIdleTimeoutMs: 60_000 });
    expect(watching.lw.openWatches).toBe(1);
    expect(watching.clock.pendingTimers()).toBe(2);
    await watching.stop();
    expect(watching.lw.openWatches).toBe(0);
    expect(watching.clock.pendingTimers()).toBe(0);
    expect(watching.reflector.state()).toBe("stopped");

    const backingOff = await startRig({}, (lw) => {
      lw.listFailures = [statusError(500)];
    });
    expect(backingOff.clock.pendingTimers()).toBe(1);
    await backingOff.stop();
    expect(backingOff.clock.pendingTimers()).toBe(0);
    expect(backingOff.lw.openWatches).toBe(0);
  });
});
