/**
 * The workqueue measured like client-go's in the peer program (src/tools/bench/client-go-peer/workqueue.go), step for
 * step: one producer and one worker. The producer adds a burst of distinct keys and waits until the worker has
 * taken and finished them all; the worker is parked in `get()` between bursts, so every burst pays the hand-off
 * that wakes it (a resolved promise here, a condition variable there). Plus the two dedup cases, which are
 * deterministic on both sides. It measures the basic queue every controller runs on (`DelayingQueue` and
 * `RateLimitingQueue` extend the packed fast path, `queue-packed.ts`); `bench workqueue` compares it with the
 * literal `queue.ts`.
 */
import { PackedQueue as Queue } from "../../../workqueue/queue-packed.js";

const KEYS = Array.from({ length: 1024 }, (_, i) => `namespace-${i % 7}/object-${i}`);

/** Add/get/done cycles per second with one producer and one worker, the producer waiting after each burst. */
export async function queueCycles(n: number, burst: number): Promise<number> {
  const q = new Queue<string>();
  let roundDone: (() => void) | undefined;
  let processed = 0;
  const worker = (async () => {
    for (;;) {
      const r = await q.get();
      if (r.shutdown) return;
      q.done(r.item);
      if (++processed % burst === 0) roundDone?.();
    }
  })();
  const rounds = Math.floor(n / burst);
  let next = 0;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    const finished = new Promise<void>((resolve) => {
      roundDone = resolve;
    });
    for (let j = 0; j < burst; j++) q.add(KEYS[next++ & 1023] as string);
    await finished;
  }
  const elapsed = performance.now() - start;
  q.shutDown();
  await worker;
  return (rounds * burst) / (elapsed / 1000);
}

/** Gets and finishes until the queue is empty, then shuts it down; returns how many items came out. */
async function drain(q: Queue<string>): Promise<number> {
  let gets = 0;
  while (q.len() > 0) {
    const r = await q.get();
    if (r.shutdown) break;
    q.done(r.item);
    gets++;
  }
  q.shutDown();
  return gets;
}

/** `perKey` adds of each of `distinct` keys before any worker runs: adds per second, and the gets that follow. */
export async function burstBeforeWorker(
  distinct: number,
  perKey: number,
): Promise<{ addsPerSecond: number; gets: number }> {
  const q = new Queue<string>();
  const start = performance.now();
  for (let i = 0; i < perKey; i++) for (let k = 0; k < distinct; k++) q.add(KEYS[k] as string);
  const addsPerSecond = (distinct * perKey) / ((performance.now() - start) / 1000);
  return { addsPerSecond, gets: await drain(q) };
}

/** One key taken into processing, `adds` more adds of it, done, drained: the gets (2: parked once in dirty). */
export async function burstWhileProcessing(adds: number): Promise<number> {
  const q = new Queue<string>();
  q.add(KEYS[0] as string);
  const first = await q.get();
  for (let i = 0; i < adds; i++) q.add(KEYS[0] as string);
  if (!first.shutdown) q.done(first.item);
  return 1 + (await drain(q));
}

/** The best of `times` runs. */
export async function bestOf(times: number, fn: () => Promise<number>): Promise<number> {
  let top = 0;
  for (let i = 0; i < times; i++) top = Math.max(top, await fn());
  return top;
}
