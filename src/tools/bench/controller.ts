/**
 * Controller benchmarks: the dedup a controller inherits from its queue (10 rapid updates to one key before a
 * worker runs -> 1 reconcile; a burst of 1000 updates while it runs -> at most 2) and the runner's overhead
 * (no-op reconciles per second reading an in-memory map that stands in for a lister; target >= 10 000).
 */
import { FakeClock, flushMicrotasks } from "../../clock/index.js";
import { Controller } from "../../controller/controller.js";
import { type BenchContext, type Benchmark, type BenchResult, meets } from "./types.js";

async function rapidUpdatesBeforeWorker(updates: number): Promise<number> {
  const clock = new FakeClock(0);
  let reconciles = 0;
  const c = new Controller({ name: "bench-rapid", clock, reconcile: () => void reconciles++ });
  for (let i = 0; i < updates; i++) c.enqueue("ns/foo");
  c.start();
  await clock.advance(1000);
  await c.stop();
  return reconciles;
}

async function burstWhileRunning(updates: number): Promise<number> {
  const clock = new FakeClock(0);
  let reconciles = 0;
  const c = new Controller({
    name: "bench-burst",
    clock,
    reconcile: async () => {
      reconciles++;
      await clock.sleep(5); // a reconcile that takes some time: the burst lands while it runs
    },
  });
  c.start();
  await flushMicrotasks();
  // The burst arrives over 1 ms of fake time in chunks, as watch events would.
  for (let i = 0; i < updates; i++) {
    c.enqueue("ns/foo");
    if (i % 100 === 99) await clock.advance(0.1);
  }
  await clock.advance(1000);
  await c.stop();
  return reconciles;
}

async function noopReconciles(n: number, workers: number): Promise<number> {
  const lister = new Map<string, { spec: { replicas: number } }>();
  const keys = Array.from({ length: n }, (_, i) => `ns-${i % 10}/obj-${i}`);
  for (const k of keys) lister.set(k, { spec: { replicas: 1 } });
  let count = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const c = new Controller({
    name: "bench-noop",
    workers,
    reconcile: (key) => {
      const obj = lister.get(key);
      if (obj && obj.spec.replicas === 1 && ++count === n) finish();
    },
  });
  const start = performance.now();
  for (const k of keys) c.enqueue(k);
  c.start();
  await finished;
  const rate = n / ((performance.now() - start) / 1000);
  await c.stop();
  return rate;
}

/** The controller benchmark suite. */
export const benchmark: Benchmark = {
  name: "controller",
  title: "what a controller inherits from its queue: dedup of bursts, runner overhead",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const keys = ctx.tiny ? 2_000 : 200_000;
    const rapid = await rapidUpdatesBeforeWorker(10);
    const burst = await burstWhileRunning(1000);
    await noopReconciles(keys / 10, 1); // warm-up
    const one = await noopReconciles(keys, 1);
    const four = await noopReconciles(keys, 4);
    const figures = [
      {
        name: "reconciles for 10 rapid updates to one key before a worker runs",
        value: rapid,
        unit: "reconciles",
        target: "<= 1",
        met: rapid === 1,
        notes: "exactly 1 expected: the queue's dirty set collapses the adds",
      },
      {
        name: "reconciles for a burst of 1000 updates to one key while it reconciles",
        value: burst,
        unit: "reconciles",
        target: "<= 2",
        met: meets(burst, "<= 2"),
        notes: "1 running + 1 parked in dirty; burst spread over 1 ms of fake time, reconcile takes 5 ms",
      },
      {
        name: `no-op reconciles per second, 1 worker (${keys} keys, map lookup)`,
        value: one,
        unit: "reconciles/s",
        target: ">= 10000",
        met: meets(one, ">= 10000"),
        peers: [{ name: "same with 4 workers", value: four, ratio: one / four }],
        notes: "default named RateLimitingQueue with metrics; real clock",
      },
    ];
    return { figures, charts: [], missing: [] };
  },
};
