/**
 * Grader of lab 04-workqueue: the learner's `WorkQueue` driven directly, no cluster, backoff on a FakeClock. The
 * checks hold it to client-go's workqueue guarantees: dedup while queued (dirty), one worker per key (processing),
 * a key re-added while held runs once more after `done`, per-key exponential backoff, and a shutdown that wakes
 * every waiting `get()`.
 */
import { type Clock, FakeClock } from "../../clock/index.js";
import { defineLab } from "../grading/index.js";
import { importLab, sleep } from "./support/index.js";

/** What `labs/04-workqueue/workqueue.ts` must export (its README): a workqueue of keys. */
export interface QueueModule {
  WorkQueue: new <T>(options?: { clock?: Clock; baseDelayMs?: number; maxDelayMs?: number }) => WorkQueue<T>;
}

/** The learner's queue, as the grader drives it (client-go's rate-limiting workqueue, in small). */
export interface WorkQueue<T> {
  add(key: T): void;
  get(): Promise<{ item: T; shutdown: false } | { item: undefined; shutdown: true }>;
  done(key: T): void;
  len(): number;
  addRateLimited(key: T): void;
  forget(key: T): void;
  numRequeues(key: T): number;
  shutDown(): void;
}

const TIMEOUT = Symbol("timeout");

/**
 * How long a check waits for something that must arrive (a key already queued, a woken get()): only a broken
 * queue waits this long, so it is generous enough for a loaded machine. Waits for something that must NOT arrive
 * stay short (300 ms): a slow machine cannot make a key appear.
 */
const ARRIVES_MS = 5_000;

/** `p`'s value, or TIMEOUT when it has not settled within `ms`. A rejection is rethrown. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  const timeout = sleep(ms).then((): typeof TIMEOUT => TIMEOUT);
  return Promise.race([p, timeout]);
}

const load = (dir: string) => importLab<QueueModule>(dir, "workqueue.js");

/** Grader of labs/04-workqueue: dedup, one worker per key, re-add while held, backoff on a fake clock. */
export default defineLab({
  title: "a workqueue of keys",
  async checks(dir) {
    return [
      {
        requirement: "ten adds of one key before a get are handed out once",
        hint: "an add of a key that is already waiting must do nothing (the dirty set)",
        timeout: 10_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          for (let i = 0; i < 10; i++) q.add("ns/web");
          if (q.len() !== 1) throw new Error(`len() is ${q.len()} after ten adds of one key`);
          const first = await within(q.get(), ARRIVES_MS);
          if (first === TIMEOUT || first.item !== "ns/web") throw new Error("get() did not hand out ns/web");
          const second = await within(q.get(), 300);
          if (second !== TIMEOUT) throw new Error(`a second get() returned ${JSON.stringify(second)}`);
          q.shutDown();
        },
      },
      {
        requirement: "keys are handed out in the order they were first added",
        timeout: 10_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          for (const k of ["a", "b", "a", "c", "b"]) q.add(k);
          const got: string[] = [];
          for (let i = 0; i < 3; i++) {
            const r = await within(q.get(), ARRIVES_MS);
            if (r === TIMEOUT)
              throw new Error(`get() number ${i + 1} did not return; got so far ${got.join(",")}`);
            got.push(String(r.item));
          }
          if (got.join(",") !== "a,b,c") throw new Error(`keys came out as ${got.join(",")}, expected a,b,c`);
          q.shutDown();
        },
      },
      {
        requirement: "a key is never held by two workers at once, even when it is re-added while held",
        hint: "a key in the processing set must not go back on the queue until done",
        timeout: 15_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          const holders = new Map<string, number>();
          let overlaps = 0;
          let runs = 0;
          let addsWhileHeld = 0;
          const worker = async () => {
            for (;;) {
              const r = await q.get();
              if (r.shutdown) return;
              const n = (holders.get(r.item) ?? 0) + 1;
              holders.set(r.item, n);
              if (n > 1) overlaps++;
              runs++;
              await sleep(2 + Math.random() * 5);
              holders.set(r.item, holders.get(r.item)! - 1);
              q.done(r.item);
            }
          };
          let failure: unknown;
          const workers = [worker(), worker(), worker(), worker()].map((w) =>
            w.catch((err: unknown) => {
              failure = err;
            }),
          );
          const keys = ["a", "b", "c", "d", "e"];
          // A fixed number of adds, not a time window: a loaded machine hands out fewer keys per second.
          for (let i = 0; i < 400; i++) {
            const k = keys[Math.floor(Math.random() * keys.length)]!;
            if ((holders.get(k) ?? 0) > 0) addsWhileHeld++;
            q.add(k);
            await sleep(1);
          }
          await sleep(50);
          q.shutDown();
          await within(Promise.all(workers), ARRIVES_MS);
          if (failure) throw failure;
          if (overlaps > 0) throw new Error(`${overlaps} times a worker got a key another worker still held`);
          if (runs < 20) throw new Error(`only ${runs} keys were handed out to 4 workers for 400 adds`);
          if (addsWhileHeld === 0)
            throw new Error("no key was re-added while held (the grader's test was too lucky)");
        },
      },
      {
        requirement: "a key re-added while a worker holds it runs exactly once more after done",
        hint: "park it in the dirty set while it is processed; done() puts it back on the queue",
        timeout: 10_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          q.add("k");
          const held = await within(q.get(), ARRIVES_MS);
          if (held === TIMEOUT || held.item !== "k") throw new Error("get() did not hand out k");
          q.add("k");
          q.add("k");
          q.add("k");
          const second = q.get();
          second.catch(() => {}); // observed below; keep an early rejection from going unhandled
          if ((await within(second, 300)) !== TIMEOUT)
            throw new Error("a second worker got k while the first still held it");
          if (q.len() !== 0) throw new Error(`len() is ${q.len()} while k is held and re-added`);
          q.done("k");
          const again = await within(second, ARRIVES_MS);
          if (again === TIMEOUT) throw new Error("k never came back after done(): the re-add was dropped");
          if (again.item !== "k") throw new Error(`got ${again.item} instead of k`);
          q.done("k");
          const third = await within(q.get(), 300);
          if (third !== TIMEOUT)
            throw new Error(
              `k ran a third time (${JSON.stringify(third)}): three re-adds must collapse into one`,
            );
          q.shutDown();
        },
      },
      {
        requirement: "a waiting get() receives a key added later",
        timeout: 10_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          const waiting = q.get();
          waiting.catch(() => {}); // observed below
          await sleep(50);
          q.add("late");
          const r = await within(waiting, ARRIVES_MS);
          if (r === TIMEOUT) throw new Error("the waiting get() was not woken by add()");
          if (r.item !== "late") throw new Error(`the waiting get() returned ${JSON.stringify(r)}`);
          q.shutDown();
        },
      },
      {
        requirement:
          "addRateLimited brings a key back after 5, 10, 20, 40, 80 ms on the given clock, never earlier, and never after more than maxDelayMs",
        hint: "delay = baseDelayMs * 2^(failures so far), capped at maxDelayMs, scheduled with clock.setTimer",
        timeout: 10_000,
        run: async () => {
          const clock = new FakeClock();
          const q = new (await load(dir)).WorkQueue<string>({ clock, baseDelayMs: 5, maxDelayMs: 100 });
          const delays: number[] = [];
          for (let i = 0; i < 7; i++) {
            q.addRateLimited("k");
            if (q.len() !== 0) throw new Error(`failure ${i + 1}: the key was queued at once`);
            const before = clock.now();
            if (!(await clock.step())) throw new Error(`failure ${i + 1}: no timer was set on the clock`);
            delays.push(clock.now() - before);
            if (q.len() !== 1)
              throw new Error(`failure ${i + 1}: the key was not queued when its delay passed`);
            const r = await q.get();
            q.done(r.item!);
          }
          const want = [5, 10, 20, 40, 80, 100, 100];
          if (delays.join(",") !== want.join(","))
            throw new Error(`delays were ${delays.join(", ")} ms, expected ${want.join(", ")}`);
          if (q.numRequeues("k") !== 7)
            throw new Error(`numRequeues is ${q.numRequeues("k")} after 7 failures`);
          q.shutDown();
        },
      },
      {
        requirement: "forget resets the backoff: numRequeues becomes 0 and the next retry waits 5 ms again",
        hint: "forget() clears the key's failure count; done() does not",
        timeout: 10_000,
        run: async () => {
          const clock = new FakeClock();
          const q = new (await load(dir)).WorkQueue<string>({ clock });
          for (let i = 0; i < 3; i++) {
            q.addRateLimited("k");
            await clock.step();
            const r = await within(q.get(), ARRIVES_MS);
            if (r === TIMEOUT) throw new Error(`failure ${i + 1}: the key never came back`);
            q.done("k");
          }
          if (q.numRequeues("k") !== 3)
            throw new Error(`numRequeues is ${q.numRequeues("k")} after 3 failures`);
          q.forget("k");
          if (q.numRequeues("k") !== 0) throw new Error(`numRequeues is ${q.numRequeues("k")} after forget`);
          q.addRateLimited("k");
          await clock.advance(4);
          if (q.len() !== 0) throw new Error("after forget, the key came back within 4 ms");
          await clock.advance(1);
          if (q.len() !== 1) throw new Error("after forget, the key was not back after 5 ms");
          q.shutDown();
        },
      },
      {
        requirement:
          "each key has its own backoff: after another key failed 5 times, a key's first retry still waits 5 ms",
        hint: "count failures per key (a Map from key to count), not in one counter for the whole queue: one broken object must not slow the retries of every other",
        timeout: 10_000,
        run: async () => {
          const clock = new FakeClock();
          const q = new (await load(dir)).WorkQueue<string>({ clock, baseDelayMs: 5, maxDelayMs: 1000 });
          for (let i = 0; i < 5; i++) {
            q.addRateLimited("broken");
            if (!(await clock.step())) throw new Error(`failure ${i + 1} of "broken": no timer was set`);
            const r = await within(q.get(), 200);
            if (r === TIMEOUT) throw new Error(`failure ${i + 1} of "broken": the key never came back`);
            q.done("broken");
          }
          q.addRateLimited("fresh");
          await clock.advance(4);
          if (q.len() !== 0) throw new Error('"fresh" came back within 4 ms');
          await clock.advance(1);
          if (q.len() !== 1)
            throw new Error(
              `"fresh" failed once but was not back after 5 ms: it waits as if it had failed ${q.numRequeues("broken")} times like "broken" (numRequeues("fresh") is ${q.numRequeues("fresh")})`,
            );
          if (q.numRequeues("fresh") !== 1)
            throw new Error(`numRequeues("fresh") is ${q.numRequeues("fresh")} after its one failure`);
          q.shutDown();
        },
      },
      {
        requirement:
          "a retry that comes due goes through add: a key already waiting is not queued twice, and a key held by a worker is not handed to a second one",
        hint: "when the backoff timer fires, call add(key) so the dirty and processing sets apply, instead of pushing the key onto the queue yourself",
        timeout: 10_000,
        run: async () => {
          const clock = new FakeClock();
          const q = new (await load(dir)).WorkQueue<string>({ clock });
          // Waiting: the key is queued, then its retry comes due.
          q.add("waiting");
          q.addRateLimited("waiting");
          if (!(await clock.step())) throw new Error("addRateLimited set no timer on the clock");
          if (q.len() !== 1)
            throw new Error(`len() is ${q.len()}: a waiting key was queued again by its retry`);
          const first = await within(q.get(), 200);
          if (first === TIMEOUT || first.item !== "waiting")
            throw new Error("get() did not hand out the waiting key");
          q.done("waiting");
          const twice = await within(q.get(), 100);
          if (twice !== TIMEOUT)
            throw new Error(`the key ran twice for one add and one retry: got ${JSON.stringify(twice)}`);
          q.shutDown(); // wakes the get() abandoned above, which would otherwise take the next key
          // Held: a worker holds the key when its retry comes due.
          const h = new (await load(dir)).WorkQueue<string>({ clock });
          h.add("held");
          const held = await within(h.get(), 200);
          if (held === TIMEOUT || held.item !== "held") throw new Error("get() did not hand out the key");
          h.addRateLimited("held");
          await clock.step();
          const second = h.get();
          second.catch(() => {}); // observed below
          if ((await within(second, 100)) !== TIMEOUT)
            throw new Error("a second worker got the key while the first still held it (its retry came due)");
          h.done("held");
          const again = await within(second, 300);
          if (again === TIMEOUT || again.item !== "held")
            throw new Error(
              "the retry that came due while the key was held was lost: it never ran after done()",
            );
          h.shutDown();
        },
      },
      {
        requirement: "shutDown() wakes every waiting get() with shutdown: true, and later adds are ignored",
        timeout: 10_000,
        run: async () => {
          const q = new (await load(dir)).WorkQueue<string>();
          const waiting = Promise.allSettled([q.get(), q.get(), q.get()]);
          await sleep(20);
          q.shutDown();
          const settled = await within(waiting, ARRIVES_MS);
          if (settled === TIMEOUT) throw new Error("waiting get() calls were not woken by shutDown()");
          for (const s of settled) {
            if (s.status === "rejected") throw s.reason;
            if (!s.value.shutdown) throw new Error(`a waiting get() returned ${JSON.stringify(s.value)}`);
          }
          q.add("after");
          const r = await within(q.get(), ARRIVES_MS);
          if (r === TIMEOUT || !r.shutdown)
            throw new Error(
              `get() after shutDown returned ${String(r === TIMEOUT ? "nothing" : JSON.stringify(r))}`,
            );
        },
      },
    ];
  },
});
