import { describe, expect, it } from "vitest";
import { applyJsonPatch } from "../../../src/control-plane/apiserver/patch/json-patch.js";
import { applyMergePatch } from "../../../src/control-plane/apiserver/patch/merge-patch.js";
import { apiError, configMap, setup, widgetCrd } from "./helpers.js";

describe("merge patch (RFC 7386)", () => {
  it("merges objects, deletes on null, replaces arrays and scalars", () => {
    expect(
      applyMergePatch(
        { a: { b: 1, c: 2 }, l: [1, 2], s: "x" },
        { a: { b: null, d: 3 }, l: [3], s: { o: 1 } },
      ),
    ).toEqual({ a: { c: 2, d: 3 }, l: [3], s: { o: 1 } });
    expect(applyMergePatch({ a: 1 }, [1])).toEqual([1]);
  });
});

describe("JSON patch (RFC 6902)", () => {
  const doc = { a: { b: [1, 2, 3] }, c: "x" };
  it("supports add, remove, replace, move, copy and test", () => {
    expect(
      applyJsonPatch(doc, [
        { op: "test", path: "/c", value: "x" },
        { op: "add", path: "/a/b/-", value: 4 },
        { op: "add", path: "/a/b/0", value: 0 },
        { op: "remove", path: "/a/b/1" },
        { op: "replace", path: "/c", value: "y" },
        { op: "copy", from: "/c", path: "/d" },
        { op: "move", from: "/d", path: "/e~1f" },
      ]),
    ).toEqual({ a: { b: [0, 2, 3, 4] }, c: "y", "e/f": "y" });
    expect(doc).toEqual({ a: { b: [1, 2, 3] }, c: "x" });
  });
  it("fails atomically on a missing path or failed test", () => {
    expect(() => applyJsonPatch(doc, [{ op: "remove", path: "/zz" }])).toThrow(/missing/);
    expect(() => applyJsonPatch(doc, [{ op: "test", path: "/c", value: "nope" }])).toThrow(/test failed/);
  });
});

describe("backend patch", () => {
  it("merge patch and strategic merge patch update the stored object", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a", { x: "1", y: "2" }));
    const p = backend.patch(cm, "default", "a", "application/merge-patch+json", {
      data: { x: null, z: "3" },
    });
    expect(p.data).toEqual({ y: "2", z: "3" });
    const s = backend.patch(cm, "default", "a", "application/strategic-merge-patch+json", {
      metadata: { labels: { l: "v" } },
    });
    expect(s.metadata?.labels).toEqual({ l: "v" });
    expect(s.data).toEqual({ y: "2", z: "3" });
  });

  it("JSON patch: a failed test or unknown op is 422 Invalid, a malformed patch 400", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a", { x: "1" }));
    const ok = backend.patch(cm, "default", "a", "application/json-patch+json", [
      { op: "test", path: "/data/x", value: "1" },
      { op: "replace", path: "/data/x", value: "2" },
    ]);
    expect(ok.data).toEqual({ x: "2" });
    const failed = apiError(() =>
      backend.patch(cm, "default", "a", "application/json-patch+json", [
        { op: "test", path: "/data/x", value: "1" },
      ]),
    );
    expect(failed.code).toBe(422);
    expect(failed.reason).toBe("Invalid");
    expect(
      apiError(() => backend.patch(cm, "default", "a", "application/json-patch+json", { op: "add" })).code,
    ).toBe(400);
    expect(
      apiError(() =>
        backend.patch(cm, "default", "a", "application/json-patch+json", [{ op: "bogus", path: "/" }]),
      ).code,
    ).toBe(422);
    expect(backend.get(cm, "default", "a").data).toEqual({ x: "2" });
  });

  it("a patch carrying metadata.resourceVersion is conditional (409 on mismatch)", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a", { x: "1" }));
    backend.patch(cm, "default", "a", "application/merge-patch+json", { data: { x: "2" } });
    const err = apiError(() =>
      backend.patch(cm, "default", "a", "application/merge-patch+json", {
        metadata: { resourceVersion: a.metadata!.resourceVersion },
        data: { x: "3" },
      }),
    );
    expect(err.code).toBe(409);
  });

  it("custom resources can be patched without a resourceVersion; /status patches touch only status", () => {
    const { backend, crds, rt } = setup();
    backend.create(crds, undefined, widgetCrd({ status: true }));
    const widgets = rt("example.com", "v1", "widgets");
    backend.create(widgets, "default", { metadata: { name: "w" }, spec: { size: 1 } });
    const p = backend.patch(widgets, "default", "w", "application/merge-patch+json", { spec: { size: 2 } });
    expect(p.metadata?.generation).toBe(2);
    const s = backend.patch(
      widgets,
      "default",
      "w",
      "application/merge-patch+json",
      { spec: { size: 5 }, status: { ok: true } },
      { subresource: "status" },
    );
    expect(s.spec).toEqual({ size: 2 });
    expect(s.status).toEqual({ ok: true });
    expect(s.metadata?.generation).toBe(2);
  });

  it("an apply without fieldManager is 422, patching a missing object 404, changing the name 400", () => {
    const { backend, cm } = setup();
    expect(apiError(() => backend.patch(cm, "default", "a", "application/apply-patch+yaml", {})).code).toBe(
      422,
    );
    expect(
      apiError(() =>
        backend.patch(cm, "default", "a", "application/apply-patch+yaml", "x", { fieldManager: "m" }),
      ).code,
    ).toBe(400);
    expect(apiError(() => backend.patch(cm, "default", "a", "application/merge-patch+json", {})).code).toBe(
      404,
    );
    backend.create(cm, "default", configMap("a"));
    expect(
      apiError(() =>
        backend.patch(cm, "default", "a", "application/merge-patch+json", { metadata: { name: "b" } }),
      ).code,
    ).toBe(400);
    expect(apiError(() => backend.patch(cm, "default", "a", "application/merge-patch+json", [1])).code).toBe(
      400,
    );
  });
});
