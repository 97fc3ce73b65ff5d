/**
 * Property tests: random interleavings of add / addAfter / get / done / clock advances / shutDown by several
 * simulated workers against a DelayingQueue (which contains the basic Queue). fast-check prints the seed and the
 * shrunk command list of any failure, so a failing case can be replayed with `{ seed, path }`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { DelayingQueue } from "../../../src/workqueue/index.js";

const KEYS = ["a", "b", "c", "d", "e"];
const WORKERS = 4;

type Command =
  | { t: "add"; key: string }
  | { t: "addAfter"; key: string; ms: number }
  | { t: "advance"; ms: number }
  | { t: "get"; w: number }
  | { t: "done"; w: number }
  | { t: "shutDown" };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant("add" as const), key: fc.constantFrom(...KEYS) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("addAfter" as const),
      key: fc.constantFrom(...KEYS),
      ms: fc.integer({ min: -10, max: 500 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 300 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant("get" as const), w: fc.integer({ min: 0, max: WORKERS - 1 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant("done" as const), w: fc.integer({ min: 0, max: WORKERS - 1 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ t: "shutDown" as const }) },
);

type WorkerState = { s: "idle" } | { s: "waiting" } | { s: "holding"; key: string } | { s: "stopped" };

const tick = async () => {
  for (let i = 0; i < 4; i++) await Promise.resolve();
};

async function simulate(commands: Command[]): Promise<void> {
  const clock = new FakeClock(0);
  const q = new DelayingQueue<string>({ clock });
  const workers: WorkerState[] = Array.from({ length: WORKERS }, () => ({ s: "idle" }));
  let seq = 0;
  let shutDownAt = Number.POSITIVE_INFINITY;
  const lastRequest = new Map<string, { seq: number; delayed: boolean }>();
  const lastStart = new Map<string, number>();
  const handedOut = new Map<string, number>();
  const adds = new Map<string, number>(); // upper bound of hand-outs: add calls + addAfter calls

  const checkInvariants = () => {
    const st = q.state();
    // every item of queue is in dirty and not in processing; no duplicates in queue
    expect(new Set(st.queue).size).toBe(st.queue.length);
    for (const k of st.queue) {
      expect(st.dirty).toContain(k);
      expect(st.processing).not.toContain(k);
    }
    // never the same key in two workers at once
    const held = workers.flatMap((w) => (w.s === "holding" ? [w.key] : []));
    expect(new Set(held).size).toBe(held.length);
    expect([...held].sort()).toEqual([...st.processing].sort());
    for (const [k, n] of handedOut) expect(n).toBeLessThanOrEqual(adds.get(k) ?? 0);
  };

  const startGet = (i: number) => {
    workers[i] = { s: "waiting" };
    void q.get().then((r) => {
      if (r.shutdown) {
        workers[i] = { s: "stopped" };
        return;
      }
      const holder = workers.findIndex((w) => w.s === "holding" && w.key === r.item);
      if (holder >= 0) throw new Error(`key ${r.item} handed to worker ${i} while worker ${holder} holds it`);
      workers[i] = { s: "holding", key: r.item };
      lastStart.set(r.item, ++seq);
      handedOut.set(r.item, (handedOut.get(r.item) ?? 0) + 1);
    });
  };

  const request = (key: string, delayed: boolean) => {
    if (q.shuttingDown()) return;
    lastRequest.set(key, { seq: ++seq, delayed });
    adds.set(key, (adds.get(key) ?? 0) + 1);
  };

  for (const c of commands) {
    switch (c.t) {
      case "add":
        request(c.key, false);
        q.add(c.key);
        break;
      case "addAfter":
        request(c.key, c.ms > 0);
        q.addAfter(c.key, c.ms);
        break;
      case "advance":
        await clock.advance(c.ms);
        break;
      case "get":
        if (workers[c.w]!.s === "idle") startGet(c.w);
        break;
      case "done": {
        const w = workers[c.w]!;
        if (w.s === "holding") {
          workers[c.w] = { s: "idle" };
          q.done(w.key);
        }
        break;
      }
      case "shutDown":
        if (shutDownAt === Number.POSITIVE_INFINITY) shutDownAt = ++seq;
        q.shutDown();
        break;
    }
    await tick();
    checkInvariants();
  }

  // Let every delay fire, then run the workers until nothing is left.
  await clock.advance(10_000);
  for (let round = 0; round < 1000; round++) {
    let progressed = false;
    for (let i = 0; i < WORKERS; i++) {
      const w = workers[i]!;
      if (w.s === "holding") {
        workers[i] = { s: "idle" };
        q.done(w.key);
        progressed = true;
      } else if (w.s === "idle" && q.len() > 0) {
        startGet(i);
        progressed = true;
      }
    }
    await tick();
    checkInvariants();
    if (!progressed && q.len() === 0) break;
  }
  expect(q.len()).toBe(0);
  expect(q.state().processing).toEqual([]);

  // Never a lost key: every request is followed by a hand-out, except delayed ones dropped by shutDown.
  for (const [key, req] of lastRequest) {
    const lostByShutdown = req.delayed && shutDownAt !== Number.POSITIVE_INFINITY;
    if (lostByShutdown) continue;
    expect(
      lastStart.get(key) ?? -1,
      `key ${key} requested at ${req.seq} was never processed after`,
    ).toBeGreaterThan(req.seq);
  }
  q.shutDown();
  await tick();
  expect(workers.every((w) => w.s !== "waiting")).toBe(true);
  expect(clock.pendingTimers()).toBe(0);
}

describe("workqueue properties (fast-check)", () => {
  it("never hands a key to two workers, never loses a key, and never hands out more than it was given", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 120 }), (cmds) => simulate(cmds)),
      { numRuns: 300 },
    );
  });

  it("N adds of one key while it is processed collapse into exactly one more run", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 50 }), async (n) => {
        const q = new DelayingQueue<string>({ clock: new FakeClock(0) });
        q.add("k");
        const first = await q.get();
        for (let i = 0; i < n; i++) q.add("k");
        q.done(first.item as string);
        expect(q.len()).toBe(1);
        const second = await q.get();
        q.done(second.item as string);
        expect(q.len()).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});
