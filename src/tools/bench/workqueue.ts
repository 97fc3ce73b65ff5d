/**
 * Workqueue benchmarks: how many add/get/done cycles one worker gets through per second (target >= 1 000 000),
 * how a deep queue drains compared with a naive array-backed queue (Array.shift), and how fast the delaying
 * queue's heap schedules and fires delayed items.
 */
import { type Clock, sleepOn, type Timer } from "../../clock/index.js";
import { DelayingQueue } from "../../workqueue/delaying-queue.js";
import { Queue } from "../../workqueue/queue.js";
import { PackedQueue } from "../../workqueue/queue-packed.js";
import { type BenchContext, type BenchFigure, type Benchmark, type BenchResult, meets } from "./types.js";

/** The peer: the same dirty/processing sets, but the order kept in a plain array drained with shift(). */
class NaiveArrayQueue<T> {
  private readonly items: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();

  add(item: T): void {
    if (this.dirty.has(item)) return;
    this.dirty.add(item);
    if (!this.processing.has(item)) this.items.push(item);
  }

  get(): Promise<{ item: T | undefined; shutdown: boolean }> {
    const item = this.items.shift();
    if (item === undefined) return Promise.resolve({ item: undefined, shutdown: true });
    this.processing.add(item);
    this.dirty.delete(item);
    return Promise.resolve({ item, shutdown: false });
  }

  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) this.items.push(item);
  }
}

interface CycleQueue {
  add(item: string): void;
  get(): Promise<{ item: string | undefined; shutdown: boolean }>;
  done(item: string): void;
}

const KEYS = Array.from({ length: 1024 }, (_, i) => `namespace-${i % 7}/object-${i}`);

// One worker: add a key, get it, mark it done; cycles per second.
async function cycles(q: CycleQueue, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    q.add(KEYS[i & 1023]!);
    const r = await q.get();
    if (r.item !== undefined) q.done(r.item);
  }
  return n / ((performance.now() - start) / 1000);
}

// Fill the queue with `depth` distinct keys, then drain it; items per second for fill + drain.
async function deepDrain(q: CycleQueue, depth: number): Promise<number> {
  const keys = Array.from({ length: depth }, (_, i) => `ns/deep-${i}`);
  const start = performance.now();
  for (const k of keys) q.add(k);
  for (let i = 0; i < depth; i++) {
    const r = await q.get();
    if (r.item !== undefined) q.done(r.item);
  }
  return depth / ((performance.now() - start) / 1000);
}

async function best(times: number, fn: () => Promise<number>): Promise<number> {
  let top = 0;
  for (let i = 0; i < times; i++) top = Math.max(top, await fn());
  return top;
}

/**
 * A bare clock for measuring the heap rather than FakeClock's microtask flushing: it keeps the pending timers and
 * `runAll` jumps straight from one due time to the next.
 */
class SteppingClock implements Clock {
  private current = 0;
  private timers = new Set<{ due: number; callback: () => void }>();

  now(): number {
    return this.current;
  }

  setTimer(ms: number, callback: () => void): Timer {
    const t = { due: this.current + Math.max(0, ms), callback };
    this.timers.add(t);
    return { stop: () => this.timers.delete(t) };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return sleepOn(this, ms, signal);
  }

  runAll(): void {
    while (this.timers.size > 0) {
      let next: { due: number; callback: () => void } | undefined;
      for (const t of this.timers) if (!next || t.due < next.due) next = t;
      this.timers.delete(next!);
      this.current = Math.max(this.current, next!.due);
      next!.callback();
    }
  }
}

async function delayedFire(n: number): Promise<number> {
  const clock = new SteppingClock();
  const q = new DelayingQueue<string>({ clock });
  let seed = 42;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    q.addAfter(`ns/delayed-${i}`, 1 + (seed % 60_000));
  }
  clock.runAll();
  const rate = n / ((performance.now() - start) / 1000);
  if (q.len() !== n) throw new Error(`delaying queue fired ${q.len()} of ${n} items`);
  q.shutDown();
  return rate;
}

/** The workqueue benchmark suite. */
export const benchmark: Benchmark = {
  name: "workqueue",
  title: "the queue alone: one-worker cycles, deep drains and the delaying heap, against a naive array queue",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const n = ctx.tiny ? 20_000 : 2_000_000;
    await cycles(new Queue<string>(), n / 10); // warm-up
    await cycles(new NaiveArrayQueue<string>(), n / 10);
    await cycles(new PackedQueue<string>(), n / 10);
    const ours = await best(3, () => cycles(new Queue<string>(), n));
    const naive = await best(3, () => cycles(new NaiveArrayQueue<string>(), n));
    const packed = await best(3, () => cycles(new PackedQueue<string>(), n));
    const depth = ctx.tiny ? 2_000 : 100_000;
    const oursDeep = await best(2, () => deepDrain(new Queue<string>(), depth));
    const naiveDeep = await deepDrain(new NaiveArrayQueue<string>(), depth); // O(n^2): one run is enough
    const delayedItems = ctx.tiny ? 2_000 : 100_000;
    const delayed = await best(2, () => delayedFire(delayedItems));
    const target = ">= 1000000";
    const figures: BenchFigure[] = [
      {
        name: "add/get/done cycles, one worker",
        value: ours,
        unit: "cycles/s",
        target,
        met: meets(ours, target),
        peers: [
          { name: "naive array queue", value: naive, ratio: ours / naive },
          { name: "packed fast path (queue-packed.ts)", value: packed, ratio: ours / packed },
        ],
        notes: `best of 3 runs of ${n} cycles; add, then get() awaited, then done, in one loop (no hand-off)`,
      },
      {
        name: `fill then drain ${depth} distinct keys`,
        value: oursDeep,
        unit: "items/s",
        peers: [{ name: "naive array queue (Array.shift)", value: naiveDeep, ratio: oursDeep / naiveDeep }],
        notes: "ring buffer vs Array.shift on a deep queue",
      },
      {
        name: `addAfter + fire, ${delayedItems} items over 60 s of fake time`,
        value: delayed,
        unit: "items/s",
        notes: "min-heap with one timer for the head; a bare stepping clock jumps between due times",
      },
    ];
    return { figures, charts: [], missing: [] };
  },
};
