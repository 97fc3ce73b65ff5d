import { afterEach, describe, expect, it } from "vitest";
import { AlreadyRunError } from "../../../src/apimachinery/lifecycle.js";
import { FakeClock, flushMicrotasks } from "../../../src/clock/index.js";
import { Controller, type ControllerOptions, Result, TerminalError } from "../../../src/controller/index.js";
import { ItemExponentialFailureRateLimiter, RateLimitingQueue } from "../../../src/workqueue/index.js";

type Reported = { key: string | undefined; outcome: string; message: string };

const running: Controller[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
});

function make(clock: FakeClock, options: Partial<ControllerOptions> & Pick<ControllerOptions, "reconcile">) {
  const reported: Reported[] = [];
  const c = new Controller({
    name: "test",
    clock,
    rateLimiter: new ItemExponentialFailureRateLimiter<string>(100, 100_000),
    onError: (e, { key, outcome, operation }) =>
      reported.push({
        key,
        outcome: outcome ?? operation,
        message: e instanceof Error ? e.message : String(e),
      }),
    ...options,
  });
  running.push(c);
  return { c, reported };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("Controller", () => {
  it("retries a failing key with growing rate-limited delays, then forgets it on success", async () => {
    const clock = new FakeClock(0);
    const calls: number[] = [];
    const { c, reported } = make(clock, {
      reconcile: async () => {
        calls.push(clock.now());
        if (calls.length <= 3) throw new Error(`boom ${calls.length}`);
      },
    });
    c.enqueue("ns/a");
    c.start();
    await clock.advance(10_000);
    // Failures at 0, 100, 300; delays 100, 200, 400; success at 700.
    expect(calls).toEqual([0, 100, 300, 700]);
    expect(c.queue.numRequeues("ns/a")).toBe(0);
    expect(c.stats).toMatchObject({ reconciles: 4, error: 3, success: 1 });
    expect(reported.map((r) => r.outcome)).toEqual(["error", "error", "error"]);
  });

  it("requeueAfter forgets the backoff and runs the key again after exactly that delay", async () => {
    const clock = new FakeClock(0);
    const calls: number[] = [];
    const { c } = make(clock, {
      reconcile: async () => {
        calls.push(clock.now());
        if (calls.length === 1) throw new Error("first fails");
        if (calls.length === 2) return Result.requeueAfter(5000);
        return Result.done();
      },
    });
    c.enqueue("k");
    c.start();
    await clock.advance(100); // the retry after the error
    expect(calls).toEqual([0, 100]);
    expect(c.queue.numRequeues("k")).toBe(0); // forgotten by requeueAfter
    await clock.advance(4999);
    expect(calls).toHaveLength(2);
    await clock.advance(1);
    expect(calls).toEqual([0, 100, 5100]);
    expect(c.stats).toMatchObject({ error: 1, requeue_after: 1, success: 1 });
  });

  it("requeue: true goes through the rate limiter without an error", async () => {
    const clock = new FakeClock(0);
    const calls: number[] = [];
    const { c } = make(clock, {
      reconcile: () => {
        calls.push(clock.now());
        return calls.length < 3 ? Result.requeue() : undefined;
      },
    });
    c.enqueue("k");
    c.start();
    await clock.advance(1000);
    expect(calls).toEqual([0, 100, 300]);
    expect(c.stats).toMatchObject({ requeue: 2, success: 1 });
  });

  it("10 rapid adds of one key before a worker runs give exactly 1 reconcile", async () => {
    const clock = new FakeClock(0);
    let count = 0;
    const { c } = make(clock, { reconcile: () => void count++ });
    for (let i = 0; i < 10; i++) c.enqueue("ns/same");
    c.start();
    await clock.advance(1000);
    expect(count).toBe(1);
  });

  it("adds during a reconcile collapse into one more reconcile, never concurrent with the first", async () => {
    const clock = new FakeClock(0);
    const gate = deferred();
    let active = 0;
    let maxActive = 0;
    let count = 0;
    const { c } = make(clock, {
      workers: 4,
      reconcile: async () => {
        count++;
        active++;
        maxActive = Math.max(maxActive, active);
        if (count === 1) await gate.promise;
        active--;
      },
    });
    c.enqueue("k");
    c.start();
    await flushMicrotasks();
    for (let i = 0; i < 20; i++) c.enqueue("k");
    await flushMicrotasks();
    expect(count).toBe(1);
    gate.resolve();
    await clock.advance(100);
    expect(count).toBe(2);
    expect(maxActive).toBe(1);
  });

  it("a TerminalError is not retried (also when wrapped as a cause)", async () => {
    const clock = new FakeClock(0);
    let count = 0;
    const { c, reported } = make(clock, {
      reconcile: () => {
        count++;
        throw new Error("outer", { cause: new TerminalError("spec is invalid") });
      },
    });
    c.enqueue("k");
    c.start();
    await clock.advance(100_000);
    expect(count).toBe(1);
    expect(c.stats.terminal_error).toBe(1);
    expect(reported).toEqual([{ key: "k", outcome: "terminal_error", message: "outer" }]);
  });

  it("maxRetries drops a key after that many rate-limited retries", async () => {
    const clock = new FakeClock(0);
    let count = 0;
    const { c } = make(clock, {
      maxRetries: 3,
      reconcile: () => {
        count++;
        throw new Error("always");
      },
    });
    c.enqueue("k");
    c.start();
    await clock.advance(1_000_000);
    expect(count).toBe(4); // first try + 3 retries
    expect(c.stats).toMatchObject({ error: 3, dropped: 1 });
    expect(c.queue.numRequeues("k")).toBe(0);
  });

  it("a worker survives sync throws, rejections, non-Error throws and invalid results", async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    const { c, reported } = make(clock, {
      reconcile: (key) => {
        seen.push(key);
        if (key === "sync") throw new Error("sync throw");
        if (key === "reject") return Promise.reject(new Error("rejected"));
        if (key === "string") throw "not an error";
        if (key === "bad") return { requeueAfter: -1 };
        return undefined;
      },
      maxRetries: 0,
    });
    for (const k of ["sync", "reject", "string", "bad", "ok"]) c.enqueue(k);
    c.start();
    await clock.advance(1000);
    expect(seen).toEqual(["sync", "reject", "string", "bad", "ok"]);
    expect(c.stats).toMatchObject({ dropped: 4, success: 1 });
    expect(reported.find((r) => r.key === "bad")?.message).toMatch(/requeueAfter=-1/);
  });

  it("a throwing onError callback does not kill the worker", async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    const c = new Controller({
      name: "t",
      clock,
      maxRetries: 0,
      onError: () => {
        throw new Error("logger broke");
      },
      reconcile: (key) => {
        seen.push(key);
        if (key === "bad") throw new Error("fail");
      },
    });
    running.push(c);
    c.enqueue("bad");
    c.enqueue("good");
    c.start();
    await clock.advance(100);
    expect(seen).toEqual(["bad", "good"]);
  });

  it("a reconcile that never returns holds only its worker; stop() gives up after the drain timeout", async () => {
    const clock = new FakeClock(0);
    const done: string[] = [];
    let hungSignal: AbortSignal | undefined;
    const { c, reported } = make(clock, {
      workers: 2,
      drainTimeoutMs: 5000,
      reconcile: (key, signal) => {
        if (key === "hang") {
          hungSignal = signal;
          return new Promise<undefined>(() => {}); // ignores its signal forever
        }
        done.push(key);
        return undefined;
      },
    });
    c.enqueue("hang");
    c.start();
    await flushMicrotasks();
    for (let i = 0; i < 5; i++) c.enqueue(`other${i}`);
    await clock.advance(10);
    expect(done).toEqual(["other0", "other1", "other2", "other3", "other4"]);
    let stopped = false;
    const stopping = c.stop().then(() => {
      stopped = true;
    });
    await flushMicrotasks();
    expect(hungSignal?.aborted).toBe(true);
    expect(stopped).toBe(false);
    await clock.advance(4999);
    expect(stopped).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(stopped).toBe(true);
    expect(reported.at(-1)?.outcome).toBe("shutdown");
    expect(clock.pendingTimers()).toBe(0);
  });

  it("waits for hasSynced (polled every 100 ms) before starting workers", async () => {
    const clock = new FakeClock(0);
    let synced = false;
    let polls = 0;
    const calls: number[] = [];
    const { c } = make(clock, {
      hasSynced: [
        () => {
          polls++;
          return synced;
        },
        () => true,
      ],
      reconcile: () => void calls.push(clock.now()),
    });
    c.enqueue("k");
    c.start();
    await clock.advance(350);
    expect(calls).toEqual([]);
    expect(polls).toBe(4); // at 0, 100, 200, 300
    synced = true;
    await clock.advance(50);
    expect(calls).toEqual([400]);
  });

  it("run() rejects when caches do not sync within cacheSyncTimeoutMs, and stops cleanly", async () => {
    const clock = new FakeClock(0);
    const { c } = make(clock, {
      hasSynced: [() => false],
      cacheSyncTimeoutMs: 1000,
      reconcile: () => undefined,
    });
    const run = c.run(new AbortController().signal);
    const outcome = run.then(
      () => "resolved",
      (e: Error) => e.message,
    );
    await clock.advance(1000);
    expect(await outcome).toMatch(/timed out after 1000 ms waiting for caches to sync/);
    expect(c.queue.shuttingDown()).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("run(signal) settles when the signal aborts; keys still queued are dropped, not reconciled", async () => {
    const clock = new FakeClock(0);
    const gate = deferred();
    const seen: string[] = [];
    const { c } = make(clock, {
      reconcile: async (key) => {
        seen.push(key);
        if (key === "first") await gate.promise;
      },
    });
    const ac = new AbortController();
    c.enqueue("first");
    const run = c.run(ac.signal);
    await flushMicrotasks();
    c.enqueue("second");
    c.enqueue("third");
    ac.abort();
    await flushMicrotasks();
    gate.resolve();
    await run;
    expect(seen).toEqual(["first"]);
    expect(c.stats.skippedAtShutdown).toBe(2);
    await expect(c.run(ac.signal)).rejects.toBeInstanceOf(AlreadyRunError);
  });

  it("stop() leaves no timers: delayed retries, metrics refresh and drain timer are all cleared", async () => {
    const clock = new FakeClock(0);
    const before = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const { c } = make(clock, {
      reconcile: (key) => (key === "later" ? Result.requeueAfter(60_000) : undefined),
    });
    c.enqueue("later");
    c.queue.addAfter("delayed", 30_000);
    c.start();
    await clock.advance(10);
    expect(clock.pendingTimers()).toBeGreaterThan(0); // delay heap timer + metrics refresh
    await c.stop();
    await c.stop(); // idempotent
    expect(clock.pendingTimers()).toBe(0);
    // Process-wide count: a timer of an earlier test may end meanwhile (seen on a loaded machine), never one more.
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBeLessThanOrEqual(
      before,
    );
  });

  it("serves a queue passed in, and rejects bad options", () => {
    const clock = new FakeClock(0);
    const queue = new RateLimitingQueue<string>({ clock });
    const c = new Controller({ name: "x", queue, reconcile: () => undefined, clock });
    expect(c.queue).toBe(queue);
    expect(() => new Controller({ name: "x", workers: 0, reconcile: () => undefined })).toThrow(RangeError);
    expect(() => new Controller({ name: "x" } as ControllerOptions)).toThrow(/reconcile/);
    queue.shutDown();
  });
});
