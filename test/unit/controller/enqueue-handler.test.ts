import { describe, expect, it } from "vitest";
import { DeletedFinalStateUnknown, deletionHandlingMetaNamespaceKeyFunc } from "../../../src/cache/index.js";
import { enqueueHandler, enqueueRequestForOwner } from "../../../src/controller/index.js";
import { Queue } from "../../../src/workqueue/index.js";

describe("enqueueHandler", () => {
  it("adds namespace/name keys for add, update (new object) and delete, deduplicated by the queue", () => {
    const q = new Queue<string>();
    const h = enqueueHandler(q);
    h.onAdd({ metadata: { namespace: "ns", name: "a" } });
    h.onUpdate({ metadata: { namespace: "ns", name: "old" } }, { metadata: { namespace: "ns", name: "b" } });
    h.onDelete({ metadata: { name: "cluster-scoped" } });
    h.onAdd({ metadata: { namespace: "ns", name: "a" } });
    expect(q.state().queue).toEqual(["ns/a", "ns/b", "cluster-scoped"]);
  });

  it("uses the key of a DeletedFinalStateUnknown-style tombstone as is", () => {
    const q = new Queue<string>();
    enqueueHandler(q).onDelete({ key: "ns/gone", obj: { metadata: { namespace: "ns", name: "gone" } } });
    expect(q.state().queue).toEqual(["ns/gone"]);
    expect(deletionHandlingMetaNamespaceKeyFunc({ key: "x/y", obj: undefined } as never)).toBe("x/y");
  });

  it("applies a filter to the (unwrapped) object", () => {
    const q = new Queue<string>();
    const h = enqueueHandler(q, { filter: (o) => o.metadata?.namespace === "keep" });
    h.onAdd({ metadata: { namespace: "keep", name: "a" } });
    h.onAdd({ metadata: { namespace: "drop", name: "b" } });
    h.onDelete({ key: "drop/c", obj: { metadata: { namespace: "drop", name: "c" } } });
    expect(q.state().queue).toEqual(["keep/a"]);
  });

  it("reports objects without a name instead of throwing into the informer", () => {
    const q = new Queue<string>();
    const invalid: string[] = [];
    const h = enqueueHandler(q, { onInvalid: (_o, e) => invalid.push(e.message) });
    expect(() => h.onAdd({ metadata: {} })).not.toThrow();
    expect(() => h.onAdd(null)).not.toThrow();
    expect(invalid).toHaveLength(2);
    expect(q.len()).toBe(0);
  });
});

describe("enqueueRequestForOwner", () => {
  const ref = (kind: string, name: string, controller: boolean, apiVersion = "workbook.dev/v1") => ({
    apiVersion,
    kind,
    name,
    uid: `uid-${name}`,
    controller,
  });
  const child = (name: string, ...ownerReferences: ReturnType<typeof ref>[]) => ({
    metadata: { namespace: "ns", name, ownerReferences, labels: { "workbook.dev/configset": "by-label" } },
  });

  it("enqueues the controlling owner of the given kind, from adds, updates (old and new) and tombstones", () => {
    const q = new Queue<string>();
    const h = enqueueRequestForOwner(q, { kind: "ConfigSet", group: "workbook.dev" });
    h.onAdd(child("c1", ref("ConfigSet", "a", true)));
    h.onUpdate(child("c2", ref("ConfigSet", "b", true)), child("c2", ref("ConfigSet", "c", true)));
    h.onDelete(new DeletedFinalStateUnknown("ns/c3", child("c3", ref("ConfigSet", "d", true))));
    expect(q.state().queue).toEqual(["ns/a", "ns/b", "ns/c", "ns/d"]);
  });

  it("ignores labels, non-controller owners, other kinds and other groups", () => {
    const q = new Queue<string>();
    const h = enqueueRequestForOwner(q, { kind: "ConfigSet", group: "workbook.dev" });
    h.onAdd(child("no-owner"));
    h.onAdd(child("not-controller", ref("ConfigSet", "x", false)));
    h.onAdd(child("other-kind", ref("Deployment", "y", true, "apps/v1")));
    h.onAdd(child("other-group", ref("ConfigSet", "z", true, "example.com/v1")));
    h.onDelete(new DeletedFinalStateUnknown("ns/gone", undefined));
    expect(q.len()).toBe(0);
  });

  it("keys a cluster-scoped owner by its bare name", () => {
    const q = new Queue<string>();
    enqueueRequestForOwner(q, { kind: "Node", group: "", namespaced: false }).onAdd(
      child("lease", ref("Node", "node-1", true, "v1")),
    );
    expect(q.state().queue).toEqual(["node-1"]);
  });
});
