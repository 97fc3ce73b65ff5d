import { describe, expect, it } from "vitest";
import { apiError, configMap, setup } from "./helpers.js";

describe("backend safety", () => {
  it("__proto__ keys in bodies and patches stay plain data and never reach prototypes", () => {
    const { backend, cm } = setup();
    const body = JSON.parse('{"metadata":{"name":"p","__proto__":{"polluted":1}},"data":{"__proto__":"x"}}');
    const created = backend.create(cm, "default", body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(created.metadata)).toBe(Object.prototype);
    expect(Object.hasOwn(created.data as object, "__proto__")).toBe(true);
    backend.patch(
      cm,
      "default",
      "p",
      "application/merge-patch+json",
      JSON.parse('{"__proto__":{"polluted":2},"data":{"__proto__":"y"}}'),
    );
    expect(backend.get(cm, "default", "p").data).toEqual(JSON.parse('{"__proto__":"y"}'));
    const typed = JSON.parse('{"data":{"__proto__":{"polluted":3}}}');
    expect(
      apiError(() => backend.patch(cm, "default", "p", "application/merge-patch+json", typed)).code,
    ).toBe(400);
    // The top-level "__proto__" field is not a ConfigMap field: field validation dropped it, so a JSON patch
    // through it has no parent to add to (a Status, not a prototype write).
    expect(
      apiError(() =>
        backend.patch(cm, "default", "p", "application/json-patch+json", [
          { op: "add", path: "/__proto__/polluted", value: 4 },
        ]),
      ).code,
    ).toBeGreaterThanOrEqual(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("objects from clients and objects returned never alias stored state", () => {
    const { backend, cm } = setup();
    const body = configMap("a", { k: "v" });
    const created = backend.create(cm, "default", body);
    (body.data as Record<string, string>).k = "changed";
    expect(backend.get(cm, "default", "a").data).toEqual({ k: "v" });
    expect(Object.isFrozen(created)).toBe(true);
    expect(() => {
      (created.data as Record<string, string>).k = "mutated";
    }).toThrow(TypeError);
    expect(backend.get(cm, "default", "a").data).toEqual({ k: "v" });
  });

  it("unexpected failures become 500 InternalError and leave the store intact", () => {
    const { backend, cm } = setup();
    const rev = backend.currentRevision();
    const hostile = { metadata: { name: "x" }, data: { k: 1n } };
    const err = apiError(() => backend.create(cm, "default", hostile));
    expect(err.code).toBe(500);
    expect(err.reason).toBe("InternalError");
    expect(backend.currentRevision()).toBe(rev);
    const unknown = apiError(() =>
      backend.get({ ...cm, resource: "nothings", group: "nope" }, "default", "x"),
    );
    expect(unknown.code).toBe(404);
  });

  it("rejects absurdly deep bodies with 400, not a stack overflow", () => {
    const { backend, cm } = setup();
    let deep: unknown = "x";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const err = apiError(() =>
      backend.create(cm, "default", { metadata: { name: "deep" }, data: {}, extra: deep }),
    );
    expect(err.code).toBe(400);
    expect(err.message).toContain("exceeded max depth");
    backend.create(cm, "default", configMap("shallow"));
    for (const type of ["application/merge-patch+json", "application/strategic-merge-patch+json"] as const) {
      expect(
        apiError(() => backend.patch(cm, "default", "shallow", type, { data: {}, extra: deep })).code,
      ).toBe(400);
    }
    const op = [{ op: "add", path: "/extra", value: deep }];
    expect(
      apiError(() => backend.patch(cm, "default", "shallow", "application/json-patch+json", op)).code,
    ).toBe(400);
  });

  it("rejects bodies with wrongly typed metadata (400) instead of storing them", () => {
    const { backend, cm } = setup();
    expect(apiError(() => backend.create(cm, "default", { metadata: "x" })).code).toBe(400);
    expect(apiError(() => backend.create(cm, "default", { metadata: { name: 5 } })).code).toBe(400);
    expect(
      apiError(() => backend.create(cm, "default", { metadata: { name: "a", labels: ["x"] } })).code,
    ).toBe(422);
  });
});
