import { describe, expect, it } from "vitest";
import { flushMicrotasks } from "../../../src/clock/index.js";
import { Queue } from "../../../src/workqueue/index.js";
import { PackedQueue } from "../../../src/workqueue/queue-packed.js";

async function getItem<T>(q: Pick<Queue<T>, "get">): Promise<T> {
  const r = await q.get();
  if (r.shutdown) throw new Error("unexpected shutdown");
  return r.item;
}

// The literal queue and its packed fast path must behave alike: every case runs against both.
describe.each([
  ["Queue", Queue],
  ["PackedQueue (fast path)", PackedQueue],
] as const)("%s", (_name, Queue) => {
  it("deduplicates adds of a dirty item and hands items out in FIFO order of first add", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.add("b");
    q.add("a");
    q.add("c");
    q.add("b");
    expect(q.len()).toBe(3);
    expect(await getItem(q)).toBe("a");
    expect(await getItem(q)).toBe("b");
    expect(await getItem(q)).toBe("c");
    expect(q.len()).toBe(0);
  });

  it("parks an item re-added while processing and re-queues it once on done", async () => {
    const q = new Queue<string>();
    q.add("a");
    const a = await getItem(q);
    q.add("a");
    q.add("a");
    q.add("a");
    // Not handed out while a worker holds it.
    expect(q.len()).toBe(0);
    expect(q.state()).toMatchObject({ dirty: ["a"], processing: ["a"], queue: [] });
    let second: string | undefined;
    void q.get().then((r) => {
      second = r.item;
    });
    await flushMicrotasks();
    expect(second).toBeUndefined();
    q.done(a);
    await flushMicrotasks();
    expect(second).toBe("a");
    q.done("a");
    expect(q.len()).toBe(0);
    expect(q.state()).toMatchObject({ dirty: [], processing: [] });
  });

  it("blocks get until an add, waking waiters oldest first", async () => {
    const q = new Queue<string>();
    const got: string[] = [];
    void q.get().then((r) => got.push(`w1:${r.item}`));
    void q.get().then((r) => got.push(`w2:${r.item}`));
    await flushMicrotasks();
    expect(got).toEqual([]);
    q.add("x");
    q.add("y");
    await flushMicrotasks();
    expect(got).toEqual(["w1:x", "w2:y"]);
  });

  it("ignores done for an item it is not processing (no duplicate)", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.done("a");
    expect(q.len()).toBe(1);
    expect(q.state().queue).toEqual(["a"]);
  });

  it("after shutDown: drops adds, still returns queued items, then reports shutdown", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.add("b");
    q.shutDown();
    q.add("c");
    expect(q.shuttingDown()).toBe(true);
    expect(await getItem(q)).toBe("a");
    expect(await getItem(q)).toBe("b");
    const last = await q.get();
    expect(last).toEqual({ item: undefined, shutdown: true });
    q.shutDown(); // idempotent
  });

  it("shutDown wakes blocked getters with shutdown", async () => {
    const q = new Queue<string>();
    const r = q.get();
    q.shutDown();
    await expect(r).resolves.toEqual({ item: undefined, shutdown: true });
  });

  it("shutDownWithDrain waits for processing to empty (not the queue)", async () => {
    const q = new Queue<string>();
    q.add("a");
    q.add("b");
    const a = await getItem(q);
    let drained = false;
    void q.shutDownWithDrain().then(() => {
      drained = true;
    });
    await flushMicrotasks();
    expect(drained).toBe(false);
    q.done(a);
    await flushMicrotasks();
    // "b" is still queued but nothing is processing: the drain is over.
    expect(drained).toBe(true);
    expect(q.len()).toBe(1);
  });

  it("shutDown cuts a pending drain short", async () => {
    const q = new Queue<string>();
    q.add("a");
    await getItem(q);
    let drained = false;
    void q.shutDownWithDrain().then(() => {
      drained = true;
    });
    await flushMicrotasks();
    expect(drained).toBe(false);
    q.shutDown();
    await flushMicrotasks();
    expect(drained).toBe(true);
  });

  it("drains a deep queue (100 000 items) in order", async () => {
    const q = new Queue<number>();
    for (let i = 0; i < 100_000; i++) q.add(i);
    for (let i = 0; i < 100_000; i++) {
      const item = await getItem(q);
      if (item !== i) throw new Error(`expected ${i}, got ${item}`);
      q.done(item);
    }
    expect(q.len()).toBe(0);
  });

  it("forgets finished items in bulk (memory stays bounded) without losing a held or parked one", async () => {
    const q = new Queue<string>();
    // Internal: the packed queue keeps entries of finished items until a sweep drops them; the literal one keeps
    // only its dirty and processing sets.
    const inside = q as unknown as {
      entries?: Map<string, unknown>;
      dirty?: Set<string>;
      processing?: Set<string>;
    };
    const tracked = () => inside.entries?.size ?? (inside.dirty?.size ?? 0) + (inside.processing?.size ?? 0);
    q.add("held");
    expect(await getItem(q)).toBe("held");
    q.add("held"); // parked: dirty and processing
    for (let i = 0; i < 20_000; i++) {
      q.add(`k${i}`);
      q.done(await getItem(q));
    }
    expect(tracked()).toBeLessThan(5_000);
    expect(q.state()).toMatchObject({ dirty: ["held"], processing: ["held"], queue: [] });
    q.done("held");
    expect(await getItem(q)).toBe("held");
    // A swept key is a new key again: added, handed out, deduplicated as before.
    q.add("k0");
    q.add("k0");
    expect(q.len()).toBe(1);
  });
});
