import { describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { DeletedFinalStateUnknown } from "../../../src/cache/index.js";
import { enqueueRequestsFromMapFunc } from "../../../src/controller/index.js";
import { Queue } from "../../../src/workqueue/index.js";

const secret = (name: string, refs: string[]): MetaObject =>
  ({ metadata: { namespace: "ns", name, annotations: { refs: refs.join(",") } } }) as MetaObject;
const referrers = (o: MetaObject) =>
  (o.metadata?.annotations?.refs ?? "")
    .split(",")
    .filter(Boolean)
    .map((n) => `ns/${n}`);

describe("enqueueRequestsFromMapFunc", () => {
  it("enqueues every key the map function returns, never the object's own key", () => {
    const q = new Queue<string>();
    enqueueRequestsFromMapFunc(q, referrers).onAdd(secret("tls", ["a", "b", "c"]));
    expect(q.state().queue).toEqual(["ns/a", "ns/b", "ns/c"]);
  });

  it("maps both sides of an update, so a reference that moved wakes the old and the new referrers", () => {
    const q = new Queue<string>();
    enqueueRequestsFromMapFunc(q, referrers).onUpdate(secret("tls", ["a", "b"]), secret("tls", ["b", "c"]));
    expect(q.state().queue).toEqual(["ns/a", "ns/b", "ns/c"]);
  });

  it("maps the last state inside a tombstone", () => {
    const q = new Queue<string>();
    enqueueRequestsFromMapFunc(q, referrers).onDelete(
      new DeletedFinalStateUnknown("ns/tls", secret("tls", ["z"])),
    );
    expect(q.state().queue).toEqual(["ns/z"]);
  });

  it("reports a throwing map function and enqueues nothing for that event", () => {
    const q = new Queue<string>();
    const errors: string[] = [];
    const h = enqueueRequestsFromMapFunc(
      q,
      () => {
        throw new Error("boom");
      },
      (_o, e) => errors.push(e.message),
    );
    expect(() => h.onAdd(secret("tls", []))).not.toThrow();
    expect(errors).toEqual(["boom"]);
    expect(q.len()).toBe(0);
  });
});
