import { describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { DeletedFinalStateUnknown, FilteringResourceEventHandler } from "../../../src/cache/index.js";
import { enqueueHandler, predicate, withPredicates } from "../../../src/controller/index.js";
import { Queue } from "../../../src/workqueue/index.js";

const site = (meta: Partial<MetaObject["metadata"]> = {}, status?: unknown): MetaObject =>
  ({
    metadata: { namespace: "ns", name: "a", generation: 1, resourceVersion: "10", ...meta },
    ...(status === undefined ? {} : { status }),
  }) as MetaObject;

describe("predicate.generationChanged", () => {
  const p = predicate.generationChanged;
  it("hides status-only writes, label and annotation writes and resyncs; passes spec changes", () => {
    const old = site();
    expect(p.update!(old, site({ resourceVersion: "11" }, { phase: "x" }))).toBe(false);
    expect(p.update!(old, site({ resourceVersion: "12", labels: { a: "b" } }))).toBe(false);
    expect(p.update!(old, site({ resourceVersion: "13", annotations: { a: "b" } }))).toBe(false);
    expect(p.update!(old, old)).toBe(false);
    expect(p.update!(old, site({ resourceVersion: "14", generation: 2 }))).toBe(true);
  });
  it("passes the start of a deletion, because the API server moves the generation then", () => {
    const deleting = site({
      resourceVersion: "15",
      generation: 2,
      deletionTimestamp: "2026-12-07T00:00:00Z",
    });
    expect(p.update!(site({ finalizers: ["f"] }), deleting)).toBe(true);
  });
  it("leaves creates and deletes through (no create or delete method)", () => {
    expect(p.create).toBeUndefined();
    expect(p.delete).toBeUndefined();
  });
});

describe("label, annotation and resourceVersion predicates", () => {
  it("labelChanged compares label maps, not object identity", () => {
    const p = predicate.labelChanged;
    expect(p.update!(site({ labels: { a: "1" } }), site({ labels: { a: "1" }, resourceVersion: "11" }))).toBe(
      false,
    );
    expect(p.update!(site({ labels: { a: "1" } }), site({ labels: { a: "2" } }))).toBe(true);
    expect(p.update!(site({ labels: { a: "1" } }), site({ labels: { a: "1", b: "1" } }))).toBe(true);
    expect(p.update!(site({ labels: { a: "1", b: "1" } }), site({ labels: { a: "1" } }))).toBe(true);
    expect(p.update!(site(), site({ labels: {} }))).toBe(false);
  });
  it("annotationChanged sees annotations only", () => {
    const p = predicate.annotationChanged;
    expect(p.update!(site(), site({ annotations: { x: "y" } }))).toBe(true);
    expect(p.update!(site(), site({ labels: { x: "y" } }))).toBe(false);
  });
  it("resourceVersionChanged hides only resyncs", () => {
    const p = predicate.resourceVersionChanged;
    const old = site();
    expect(p.update!(old, old)).toBe(false);
    expect(p.update!(old, site({ resourceVersion: "11" }))).toBe(true);
  });
  it("labelSelectorPredicate judges the new object of an update", () => {
    const p = predicate.labelSelectorPredicate("tier=web");
    expect(p.create!(site({ labels: { tier: "web" } }))).toBe(true);
    expect(p.update!(site({ labels: { tier: "web" } }), site({ labels: { tier: "db" } }))).toBe(false);
    expect(p.delete!(site())).toBe(false);
  });
});

describe("and, or, not", () => {
  const labelsOrSpec = predicate.or(predicate.generationChanged, predicate.labelChanged);
  it("or passes an update when one passes it, and keeps creates", () => {
    expect(labelsOrSpec.update!(site(), site({ labels: { a: "b" } }))).toBe(true);
    expect(labelsOrSpec.update!(site(), site({ generation: 2 }))).toBe(true);
    expect(labelsOrSpec.update!(site(), site({ resourceVersion: "11" }, { s: 1 }))).toBe(false);
    expect(labelsOrSpec.create!(site())).toBe(true);
  });
  it("and needs all; not inverts every method; empty and passes, empty or rejects", () => {
    const both = predicate.and(predicate.generationChanged, predicate.labelChanged);
    expect(both.update!(site(), site({ labels: { a: "b" } }))).toBe(false);
    expect(both.update!(site(), site({ labels: { a: "b" }, generation: 2 }))).toBe(true);
    const statusOnly = predicate.not(predicate.generationChanged);
    expect(statusOnly.update!(site(), site({ resourceVersion: "11" }))).toBe(true);
    expect(statusOnly.create!(site())).toBe(false);
    expect(predicate.and().update!(site(), site())).toBe(true);
    expect(predicate.or().update!(site(), site())).toBe(false);
  });
  it("newPredicateFuncs applies one test to every kind of event", () => {
    const inNs = predicate.newPredicateFuncs((o) => o.metadata?.namespace === "ns");
    expect([
      inNs.create!(site()),
      inNs.update!(site(), site({ namespace: "x" })),
      inNs.delete!(site()),
    ]).toEqual([true, false, true]);
  });
});

describe("withPredicates", () => {
  it("only lets through what every predicate passes, per registration", () => {
    const q = new Queue<string>();
    const h = withPredicates(enqueueHandler(q), predicate.generationChanged);
    h.onUpdate!(site({ name: "status" }), site({ name: "status", resourceVersion: "11" }, { s: 1 }));
    h.onUpdate!(site({ name: "spec" }), site({ name: "spec", generation: 2 }));
    h.onAdd!(site({ name: "new" }), false);
    h.onDelete!(site({ name: "gone" }));
    expect(q.state().queue).toEqual(["ns/spec", "ns/new", "ns/gone"]);
  });
  it("hands a delete predicate the object inside a tombstone, and the handler the tombstone", () => {
    const seen: unknown[] = [];
    const deletes: unknown[] = [];
    const h = withPredicates<MetaObject>(
      { onDelete: (o) => void deletes.push(o) },
      {
        delete: (o) => {
          seen.push(o);
          return o.metadata?.name === "keep";
        },
      },
    );
    const tomb = new DeletedFinalStateUnknown("ns/keep", site({ name: "keep" }));
    h.onDelete!(tomb);
    h.onDelete!(new DeletedFinalStateUnknown("ns/drop", site({ name: "drop" })));
    expect(seen.map((o) => (o as MetaObject).metadata?.name)).toEqual(["keep", "drop"]);
    expect(deletes).toEqual([tomb]);
  });
});

describe("FilteringResourceEventHandler", () => {
  it("turns an update into an add or a delete when the object enters or leaves the filtered view", () => {
    const calls: string[] = [];
    const h = new FilteringResourceEventHandler<MetaObject>(
      (o) => (o as MetaObject).metadata?.labels?.tier === "web",
      {
        onAdd: (o, initial) => void calls.push(`add ${o.metadata?.name} ${initial}`),
        onUpdate: (_o, n) => void calls.push(`update ${n.metadata?.name}`),
        onDelete: (o) => void calls.push(`delete ${(o as MetaObject).metadata?.name}`),
      },
    );
    const web = (name: string) => site({ name, labels: { tier: "web" } });
    const db = (name: string) => site({ name, labels: { tier: "db" } });
    h.onAdd(web("a"), true);
    h.onAdd(db("b"), false);
    h.onUpdate(web("a"), web("a"));
    h.onUpdate(db("b"), web("b"));
    h.onUpdate(web("a"), db("a"));
    h.onUpdate(db("c"), db("c"));
    h.onDelete(web("b"));
    h.onDelete(db("c"));
    expect(calls).toEqual(["add a true", "update a", "add b false", "delete a", "delete b"]);
  });
});
