import { afterEach, describe, expect, it } from "vitest";
import type { ErrorContext } from "../../../src/apimachinery/lifecycle.js";
import { AlreadyRunError } from "../../../src/apimachinery/lifecycle.js";
import { seededRandom } from "../../../src/apimachinery/wait/random.js";
import type { ResourceEventHandler } from "../../../src/cache/processor-listener.js";
import {
  SharedIndexInformer,
  type SharedIndexInformerOptions,
} from "../../../src/cache/shared-index-informer.js";
import { DeletedFinalStateUnknown } from "../../../src/cache/tombstone.js";
import { FakeClock, flushMicrotasks } from "../../../src/clock/fake-clock.js";
import { FakeListWatch, type TestObject } from "./fake-list-watch.js";

type Event = string;

/** A handler that records `add a@101 (initial)`, `update a@101->102`, `delete a@102` / `delete tombstone a`. */
function recorder(name = ""): ResourceEventHandler<TestObject> & { events: Event[] } {
  const events: Event[] = [];
  const id = (o: TestObject) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
  return {
    events,
    onAdd: (o, initial) => void events.push(`${name}add ${id(o)}${initial ? " (initial)" : ""}`),
    onUpdate: (old, neu) =>
      void events.push(
        `${name}${old === neu ? "sync" : "update"} ${id(old)}->${neu.metadata?.resourceVersion}`,
      ),
    onDelete: (o) =>
      void events.push(
        o instanceof DeletedFinalStateUnknown
          ? `${name}delete tombstone ${o.key} last@${o.obj?.metadata?.resourceVersion}`
          : `${name}delete ${id(o)}`,
      ),
  };
}

const informers: SharedIndexInformer<TestObject>[] = [];
afterEach(async () => {
  for (const i of informers.splice(0)) await i.stop();
});

function rig(options: SharedIndexInformerOptions<TestObject> = {}) {
  const clock = new FakeClock();
  const lw = new FakeListWatch();
  const errors: Array<{ err: unknown; context: string }> = [];
  const context = (c: ErrorContext) => `${c.component}: ${c.operation}`;
  const informer = new SharedIndexInformer<TestObject>(lw, {
    clock,
    random: seededRandom(1),
    onError: (err, c) => errors.push({ err, context: context(c) }),
    ...options,
  });
  informers.push(informer);
  return { clock, lw, informer, errors };
}

describe("SharedIndexInformer", () => {
  it("delivers the initial list as adds (isInInitialList) and reports synced once it is processed", async () => {
    const { lw, informer } = rig();
    lw.create("a");
    lw.create("b");
    const h = recorder();
    const reg = informer.addEventHandler(h);
    expect(informer.hasSynced()).toBe(false);
    informer.start();
    await flushMicrotasks();
    expect(informer.hasSynced()).toBe(true);
    expect(reg.hasSynced()).toBe(true);
    expect(h.events).toEqual(["add a@101 (initial)", "add b@102 (initial)"]);
    lw.create("c");
    await flushMicrotasks();
    expect(h.events.at(-1)).toBe("add c@103");
    expect(informer.getIndexer().listKeys().sort()).toEqual(["default/a", "default/b", "default/c"]);
    expect(informer.lastSyncResourceVersion()).toBe("103");
  });

  it("onUpdate gets the real previous object, and the cache is updated before any handler runs", async () => {
    const { lw, informer } = rig();
    lw.create("a", "default", { v: "1" });
    const seen: string[] = [];
    informer.addEventHandler({
      onUpdate: (old, neu) => {
        const cached = informer.getIndexer().getByKey("default/a");
        seen.push(`${old.data?.v}->${neu.data?.v} cached=${cached?.data?.v}`);
      },
    });
    informer.start();
    await flushMicrotasks();
    lw.update("a", "default", { v: "2" });
    lw.update("a", "default", { v: "3" });
    await flushMicrotasks();
    expect(seen).toEqual(["1->2 cached=3", "2->3 cached=3"]);
  });

  it("a throwing handler is reported; it and the other handlers keep receiving", async () => {
    const { lw, informer, errors } = rig();
    const thrower = recorder();
    const good = recorder();
    informer.addEventHandler({
      ...thrower,
      onAdd: (o, i) => {
        thrower.onAdd!(o, i);
        throw new Error(`cannot handle ${o.metadata?.name}`);
      },
    });
    informer.addEventHandler(good);
    informer.start();
    await flushMicrotasks();
    lw.create("a");
    lw.update("a");
    await flushMicrotasks();
    expect(good.events).toEqual(["add a@101", "update a@101->102"]);
    expect(thrower.events).toEqual(["add a@101", "update a@101->102"]);
    expect(errors.map((e) => `${e.context}: ${(e.err as Error).message}`)).toEqual([
      "informer: event handler add: cannot handle a",
    ]);
  });

  it("a handler that never returns does not hold back the cache or other handlers, and stop still completes", async () => {
    const { lw, informer } = rig();
    const stuckCalls: string[] = [];
    const stuckReg = informer.addEventHandler({
      onAdd: (o) => {
        stuckCalls.push(o.metadata!.name!);
        return new Promise<void>(() => {});
      },
    });
    const good = recorder();
    const goodReg = informer.addEventHandler(good);
    informer.start();
    await flushMicrotasks();
    for (let i = 0; i < 5; i++) lw.create(`cm-${i}`);
    await flushMicrotasks();
    expect(good.events).toHaveLength(5);
    expect(stuckCalls).toEqual(["cm-0"]);
    // The stuck handler's own buffer holds the other four; the good handler's is empty.
    expect([stuckReg.pending(), goodReg.pending()]).toEqual([4, 0]);
    expect(informer.getIndexer().size).toBe(5);
    await informer.stop();
    expect(lw.openWatches).toBe(0);
  });

  it("an async handler receives its notifications one at a time, in order", async () => {
    const { lw, informer, clock } = rig();
    const log: string[] = [];
    informer.addEventHandler({
      onAdd: async (o) => {
        log.push(`start ${o.metadata?.name}`);
        await clock.sleep(1000);
        log.push(`end ${o.metadata?.name}`);
      },
    });
    informer.start();
    await flushMicrotasks();
    lw.create("a");
    lw.create("b");
    await flushMicrotasks();
    expect(log).toEqual(["start a"]);
    await clock.advance(1000);
    await clock.advance(1000);
    expect(log).toEqual(["start a", "end a", "start b", "end b"]);
  });

  it("a handler added after start first gets every cached object as an initial add, then live events", async () => {
    const { lw, informer } = rig();
    lw.create("a");
    lw.create("b");
    informer.start();
    await flushMicrotasks();
    const late = recorder();
    const reg = informer.addEventHandler(late);
    expect(reg.hasSynced()).toBe(false);
    lw.update("a");
    await flushMicrotasks();
    expect(late.events).toEqual(["add a@101 (initial)", "add b@102 (initial)", "update a@101->103"]);
    expect(reg.hasSynced()).toBe(true);
  });

  it("relist after 410 turns objects deleted during the watch gap into tombstones", async () => {
    const { lw, informer, clock } = rig({ random: () => 0 });
    lw.create("stays");
    lw.create("goes", "default", { v: "last" });
    const h = recorder();
    informer.addEventHandler(h);
    informer.start();
    await flushMicrotasks();
    lw.failWatches(); // the watch breaks with 410 ...
    await flushMicrotasks();
    lw.remove("goes"); // ... and this DELETED event is never seen
    lw.compact();
    await clock.advance(800);
    const tomb = h.events.filter((e) => e.startsWith("delete"));
    expect(tomb).toEqual(["delete tombstone default/goes last@102"]);
    expect(informer.getIndexer().listKeys()).toEqual(["default/stays"]);
  });

  it("resyncs per handler: update(old === new) only to handlers whose period is due", async () => {
    const { informer, lw, clock } = rig({ resyncPeriodMs: 10_000 });
    lw.create("a");
    const fast = recorder("fast:");
    const slow = recorder("slow:");
    const never = recorder("never:");
    informer.addEventHandler(fast);
    informer.addEventHandler(slow, 30_000);
    informer.addEventHandler(never, 0);
    informer.start();
    await flushMicrotasks();
    for (let i = 0; i < 6; i++) await clock.advance(10_000);
    expect(fast.events.filter((e) => e.includes("sync"))).toHaveLength(6);
    expect(fast.events.at(-1)).toBe("fast:sync a@101->101");
    expect(slow.events.filter((e) => e.includes("sync"))).toHaveLength(2);
    expect(never.events).toEqual(["never:add a@101 (initial)"]);
  });

  it("raises handler periods below 1 s to 1 s and lowers the check period before start", async () => {
    const { informer, lw, clock } = rig({ resyncPeriodMs: 60_000 });
    lw.create("a");
    const h = recorder();
    informer.addEventHandler(h, 200);
    informer.start();
    await flushMicrotasks();
    await clock.advance(999);
    expect(h.events.filter((e) => e.startsWith("sync"))).toHaveLength(0);
    await clock.advance(1);
    expect(h.events.filter((e) => e.startsWith("sync"))).toHaveLength(1);
  });

  it("an informer created with resync 0 never resyncs, even for a handler asking for it", async () => {
    const { informer, lw, clock } = rig({ resyncPeriodMs: 0 });
    lw.create("a");
    const h = recorder();
    informer.addEventHandler(h, 5000);
    informer.start();
    await flushMicrotasks();
    await clock.advance(60_000);
    expect(h.events).toEqual(["add a@101 (initial)"]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("applies the transform before the cache and handlers; setTransform after start is an error", async () => {
    const { informer, lw } = rig();
    lw.create("a", "default", { secret: "x" });
    informer.setTransform((o) => ({ ...o, data: {} }));
    const h = recorder();
    informer.addEventHandler(h);
    informer.start();
    await flushMicrotasks();
    expect(informer.getIndexer().getByKey("default/a")?.data).toEqual({});
    expect(() => informer.setTransform((o) => o)).toThrow(/before the informer starts/);
  });

  it("waitForCacheSync polls through the clock; false when aborted first", async () => {
    const { informer, lw, clock } = rig();
    lw.listFailures = [new Error("down")];
    lw.create("a");
    informer.start();
    const synced = informer.waitForCacheSync();
    await flushMicrotasks();
    expect(informer.hasSynced()).toBe(false);
    await clock.advance(2000);
    expect(await synced).toBe(true);

    const other = rig();
    other.lw.listFailures = Array.from({ length: 100 }, () => new Error("down"));
    other.informer.start();
    const ac = new AbortController();
    const waiting = other.informer.waitForCacheSync({ signal: ac.signal });
    await other.clock.advance(500);
    ac.abort();
    expect(await waiting).toBe(false);
  });

  it("stop() is idempotent and leaves no timers, watches or handler loops; handlers cannot be added after", async () => {
    const { informer, lw, clock } = rig({ resyncPeriodMs: 5000, reflector: { watchIdleTimeoutMs: 30_000 } });
    lw.create("a");
    informer.addEventHandler(recorder());
    informer.start();
    await flushMicrotasks();
    expect(lw.openWatches).toBe(1);
    expect(clock.pendingTimers()).toBeGreaterThan(0);
    await informer.stop();
    await informer.stop();
    expect(lw.openWatches).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
    expect(informer.isStopped()).toBe(true);
    expect(() => informer.addEventHandler(recorder())).toThrow(/stopped/);
  });

  it("run(signal) runs until the signal aborts, then leaves nothing behind", async () => {
    const { informer, lw, clock } = rig({ resyncPeriodMs: 1000 });
    const ac = new AbortController();
    const done = informer.run(ac.signal);
    await expect(informer.run(ac.signal)).rejects.toBeInstanceOf(AlreadyRunError);
    await flushMicrotasks();
    expect(informer.hasSynced()).toBe(true);
    expect(lw.openWatches).toBe(1);
    ac.abort();
    await done;
    expect(informer.isStopped()).toBe(true);
    expect(lw.openWatches).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("removeEventHandler stops deliveries to that handler only", async () => {
    const { informer, lw } = rig();
    const a = recorder();
    const b = recorder();
    const reg = informer.addEventHandler(a);
    informer.addEventHandler(b);
    informer.start();
    await flushMicrotasks();
    informer.removeEventHandler(reg);
    lw.create("x");
    await flushMicrotasks();
    expect(a.events).toEqual([]);
    expect(b.events).toEqual(["add x@101"]);
  });
});
