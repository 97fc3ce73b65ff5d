import { describe, expect, it } from "vitest";
import { addFinalizer, hasFinalizer, isBeingDeleted, removeFinalizer } from "../../../src/meta/index.js";

describe("finalizers", () => {
  it("add/remove report whether they changed the object and never duplicate", () => {
    const obj: { metadata?: { finalizers?: string[] } } = {};
    expect(hasFinalizer(obj, "a.io/x")).toBe(false);
    expect(addFinalizer(obj, "a.io/x")).toBe(true);
    expect(addFinalizer(obj, "a.io/x")).toBe(false);
    expect(addFinalizer(obj, "b.io/y")).toBe(true);
    expect(obj.metadata?.finalizers).toEqual(["a.io/x", "b.io/y"]);
    expect(removeFinalizer(obj, "a.io/x")).toBe(true);
    expect(removeFinalizer(obj, "a.io/x")).toBe(false);
    expect(obj.metadata?.finalizers).toEqual(["b.io/y"]);
    expect(() => addFinalizer(obj, "")).toThrow(/empty/);
  });

  it("isBeingDeleted follows metadata.deletionTimestamp", () => {
    expect(isBeingDeleted({ metadata: {} })).toBe(false);
    expect(isBeingDeleted({ metadata: { deletionTimestamp: "2026-01-01T00:00:00Z" } })).toBe(true);
  });
});
