import { describe, expect, it } from "vitest";
import {
  type FinalizerEvent,
  type FinalizersPatch,
  finalizer,
  finalizerAction,
} from "../../../src/meta/index.js";

interface Obj {
  metadata: { name: string; resourceVersion?: string; finalizers?: string[]; deletionTimestamp?: string };
}

const NAME = "example.com/cleanup";

function harness(object: Obj, failCleanup = false) {
  const patches: FinalizersPatch[] = [];
  const events: string[] = [];
  const run = () =>
    finalizer<Obj, string>(
      async (_obj, patch) => {
        patches.push(patch);
      },
      NAME,
      object,
      async (event: FinalizerEvent<Obj>) => {
        events.push(event.type);
        if (event.type === "cleanup" && failCleanup) throw new Error("external system down");
        return `${event.type} done`;
      },
    );
  return { patches, events, run };
}

describe("finalizer(): one decision over (finalizer present?, object deleting?)", () => {
  it("absent, live: adds the finalizer with a resourceVersion-guarded patch and does not reconcile yet", async () => {
    const h = harness({ metadata: { name: "a", resourceVersion: "7", finalizers: ["other.io/f"] } });
    expect(await h.run()).toBeUndefined();
    expect(h.events).toEqual([]);
    expect(h.patches).toEqual([{ metadata: { finalizers: ["other.io/f", NAME], resourceVersion: "7" } }]);
  });

  it("present, live: applies and returns the reconciler's result, no write", async () => {
    const h = harness({ metadata: { name: "a", resourceVersion: "8", finalizers: [NAME] } });
    expect(await h.run()).toBe("apply done");
    expect(h.events).toEqual(["apply"]);
    expect(h.patches).toEqual([]);
  });

  it("present, deleting: cleans up, then removes only our finalizer with a guarded patch", async () => {
    const deleting = { name: "a", resourceVersion: "9", deletionTimestamp: "2026-01-01T00:00:00Z" };
    const h = harness({ metadata: { ...deleting, finalizers: ["other.io/f", NAME] } });
    expect(await h.run()).toBe("cleanup done");
    expect(h.events).toEqual(["cleanup"]);
    expect(h.patches).toEqual([{ metadata: { finalizers: ["other.io/f"], resourceVersion: "9" } }]);
  });

  it("present, deleting, cleanup fails: the finalizer stays and the error reaches the caller", async () => {
    const deleting = { name: "a", resourceVersion: "9", deletionTimestamp: "2026-01-01T00:00:00Z" };
    const h = harness({ metadata: { ...deleting, finalizers: [NAME] } }, true);
    await expect(h.run()).rejects.toThrow(/external system down/);
    expect(h.patches).toEqual([]);
  });

  it("absent, deleting: nothing at all", async () => {
    const h = harness({
      metadata: { name: "a", resourceVersion: "3", deletionTimestamp: "2026-01-01T00:00:00Z" },
    });
    expect(await h.run()).toBeUndefined();
    expect(h.events).toEqual([]);
    expect(h.patches).toEqual([]);
  });

  it("the table itself, and a clear error for an object never read from the API", async () => {
    expect(finalizerAction({ metadata: {} }, NAME)).toBe("add-finalizer");
    expect(finalizerAction({ metadata: { finalizers: [NAME] } }, NAME)).toBe("apply");
    expect(finalizerAction({ metadata: { finalizers: [NAME], deletionTimestamp: "t" } }, NAME)).toBe(
      "cleanup",
    );
    expect(finalizerAction({ metadata: { deletionTimestamp: "t" } }, NAME)).toBe("nothing");
    await expect(harness({ metadata: { name: "a" } }).run()).rejects.toThrow(/resourceVersion/);
  });
});
