import { describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { type Delta, DeltaFIFO } from "../../../src/cache/delta-fifo.js";
import { Indexer } from "../../../src/cache/indexer.js";
import { DeletedFinalStateUnknown } from "../../../src/cache/tombstone.js";

const o = (name: string, rv = "1"): MetaObject => ({
  metadata: { namespace: "ns", name, resourceVersion: rv },
});

async function popAll(fifo: DeltaFIFO): Promise<Array<{ key: string; types: string[]; initial: boolean }>> {
  const out: Array<{ key: string; types: string[]; initial: boolean }> = [];
  while (fifo.length > 0) {
    await fifo.pop((deltas: Delta<MetaObject>[], initial) => {
      const first = deltas[0]!.object;
      const key = first instanceof DeletedFinalStateUnknown ? first.key : `ns/${first.metadata?.name}`;
      out.push({ key, types: deltas.map((d) => d.type), initial });
    });
  }
  return out;
}

describe("DeltaFIFO", () => {
  it("groups deltas per key, pops keys in first-arrival order, never collapses updates", async () => {
    const fifo = new DeltaFIFO();
    fifo.add(o("a"));
    fifo.add(o("b"));
    fifo.update(o("a", "2"));
    fifo.update(o("a", "3"));
    expect(fifo.listKeys()).toEqual(["ns/a", "ns/b"]);
    const popped = await popAll(fifo);
    expect(popped.map((p) => [p.key, p.types])).toEqual([
      ["ns/a", ["Added", "Updated", "Updated"]],
      ["ns/b", ["Added"]],
    ]);
  });

  it("dedups two consecutive deletes, keeping the real object over a tombstone", async () => {
    const fifo = new DeltaFIFO();
    fifo.add(o("a"));
    fifo.delete(o("a", "2"));
    fifo.delete(new DeletedFinalStateUnknown("ns/a", o("a", "1")));
    const deltas = fifo.pending("ns/a")!;
    expect(deltas.map((d) => d.type)).toEqual(["Added", "Deleted"]);
    expect(deltas[1]!.object).toEqual(o("a", "2"));
  });

  it("drops a delete of an object neither known nor pending", () => {
    const known = new Indexer();
    const fifo = new DeltaFIFO({ knownObjects: known });
    fifo.delete(o("ghost"));
    expect(fifo.length).toBe(0);
    known.add(o("real"));
    fifo.delete(o("real"));
    expect(fifo.listKeys()).toEqual(["ns/real"]);
  });

  it("replace queues Replaced for listed objects and tombstones for known and pending keys missing from the list", async () => {
    const known = new Indexer();
    known.add(o("gone-known", "5"));
    known.add(o("kept", "5"));
    const fifo = new DeltaFIFO({ knownObjects: known });
    fifo.add(o("gone-pending", "6"));
    fifo.replace([o("kept", "7"), o("new", "8")], "9");
    const gonePending = fifo.pending("ns/gone-pending")!;
    expect(gonePending.map((d) => d.type)).toEqual(["Added", "Deleted"]);
    const tomb1 = gonePending[1]!.object as DeletedFinalStateUnknown<MetaObject>;
    expect(tomb1).toBeInstanceOf(DeletedFinalStateUnknown);
    expect(tomb1.obj?.metadata?.resourceVersion).toBe("6");
    const tomb2 = fifo.pending("ns/gone-known")![0]!.object as DeletedFinalStateUnknown<MetaObject>;
    expect(tomb2).toBeInstanceOf(DeletedFinalStateUnknown);
    expect(tomb2.key).toBe("ns/gone-known");
    expect(tomb2.obj?.metadata?.resourceVersion).toBe("5");
    expect(fifo.pending("ns/kept")!.map((d) => d.type)).toEqual(["Replaced"]);
  });

  it("hasSynced turns true only after every item of the first replace was popped", async () => {
    const fifo = new DeltaFIFO({ knownObjects: new Indexer() });
    expect(fifo.hasSynced()).toBe(false);
    fifo.replace([o("a"), o("b")], "1");
    expect(fifo.hasSynced()).toBe(false);
    const seen: boolean[] = [];
    await fifo.pop((_d, initial) => seen.push(initial));
    expect(fifo.hasSynced()).toBe(false);
    fifo.add(o("c"));
    await fifo.pop((_d, initial) => seen.push(initial));
    expect(fifo.hasSynced()).toBe(true);
    await fifo.pop((_d, initial) => seen.push(initial));
    expect(seen).toEqual([true, true, false]);
  });

  it("an add before any replace counts as synced", () => {
    const fifo = new DeltaFIFO();
    fifo.add(o("a"));
    expect(fifo.hasSynced()).toBe(true);
  });

  it("resync queues Sync for known objects but skips keys with pending deltas", () => {
    const known = new Indexer();
    known.add(o("quiet", "1"));
    known.add(o("busy", "1"));
    const fifo = new DeltaFIFO({ knownObjects: known });
    fifo.update(o("busy", "2"));
    fifo.resync();
    expect(fifo.pending("ns/quiet")!.map((d) => d.type)).toEqual(["Sync"]);
    expect(fifo.pending("ns/quiet")![0]!.object).toBe(known.getByKey("ns/quiet"));
    expect(fifo.pending("ns/busy")!.map((d) => d.type)).toEqual(["Updated"]);
  });

  it("applies the transform on enqueue, but not to Sync objects or tombstones", () => {
    const known = new Indexer();
    known.add(o("k"));
    let calls = 0;
    const fifo = new DeltaFIFO({
      knownObjects: known,
      transformer: (x) => {
        calls++;
        return { ...x, metadata: { ...x.metadata, labels: { t: "yes" } } };
      },
    });
    fifo.add(o("a"));
    expect((fifo.pending("ns/a")![0]!.object as MetaObject).metadata?.labels).toEqual({ t: "yes" });
    fifo.resync();
    fifo.replace([], "2");
    expect(calls).toBe(1);
  });

  it("pop waits for an item; close releases waiters with false", async () => {
    const fifo = new DeltaFIFO();
    const seen: string[] = [];
    const waiting = fifo.pop((d) => seen.push(d[0]!.type));
    fifo.add(o("a"));
    expect(await waiting).toBe(true);
    expect(seen).toEqual(["Added"]);
    const blocked = fifo.pop(() => seen.push("never"));
    fifo.close();
    expect(await blocked).toBe(false);
    const ac = new AbortController();
    const aborted = new DeltaFIFO().pop(() => {}, ac.signal);
    ac.abort();
    expect(await aborted).toBe(false);
  });
});
