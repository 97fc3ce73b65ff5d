import { describe, expect, it } from "vitest";
import { deletionHandlingMetaNamespaceKeyFunc } from "../../../src/cache/index.js";
import { enqueueHandler } from "../../../src/controller/index.js";
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
