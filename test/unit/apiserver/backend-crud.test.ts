import { describe, expect, it } from "vitest";
import { apiError, configMap, setup } from "./helpers.js";

describe("backend: create/get/list/update/delete", () => {
  it("creates with server-set metadata and an increasing resourceVersion", () => {
    const { backend, cm } = setup();
    const before = backend.currentRevision();
    const a = backend.create(cm, "default", configMap("a", { k: "v" }));
    expect(a.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata?.creationTimestamp).toBe("2026-01-01T00:00:00Z");
    expect(a.metadata?.namespace).toBe("default");
    expect(Number(a.metadata?.resourceVersion)).toBe(before + 1);
    const b = backend.create(cm, "default", configMap("b"));
    expect(Number(b.metadata?.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
    expect(backend.get(cm, "default", "a")).toEqual(a);
  });

  it("lists sorted by key with the current revision", () => {
    const { backend, cm } = setup();
    for (const n of ["c", "a", "b"]) backend.create(cm, "default", configMap(n));
    backend.create(cm, "kube-system", configMap("z"));
    const list = backend.list(cm, "default", {});
    expect(list.items.map((i) => i.metadata?.name)).toEqual(["a", "b", "c"]);
    expect(list.metadata.resourceVersion).toBe(String(backend.currentRevision()));
    expect(list.kind).toBe("ConfigMapList");
    const all = backend.list(cm, undefined, {});
    expect(all.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([
      "default/a",
      "default/b",
      "default/c",
      "kube-system/z",
    ]);
  });

  it("listJson renders the same list as list()", () => {
    const { backend, cm } = setup();
    for (const n of ["b", "a"]) backend.create(cm, "default", configMap(n, { x: n }));
    const json = JSON.parse(backend.listJson(cm, "default", { limit: 1 }).toString());
    expect(json).toEqual(JSON.parse(JSON.stringify(backend.list(cm, "default", { limit: 1 }))));
    expect(json.items).toHaveLength(1);
  });

  it("updates with optimistic concurrency (409 with the plural in details.kind)", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a", { k: "1" }));
    const updated = backend.update(cm, "default", "a", { ...a, data: { k: "2" } });
    expect(updated.data).toEqual({ k: "2" });
    const err = apiError(() => backend.update(cm, "default", "a", { ...a, data: { k: "3" } }));
    expect(err.code).toBe(409);
    expect(err.status.reason).toBe("Conflict");
    expect(err.status.details).toEqual({ name: "a", kind: "configmaps" });
    expect(err.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it("deletes and then 404s", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a"));
    const gone = backend.delete(cm, "default", "a");
    expect(gone.metadata?.resourceVersion).toBe(String(backend.currentRevision()));
    const err = apiError(() => backend.get(cm, "default", "a"));
    expect(err.code).toBe(404);
    expect(err.message).toBe('configmaps "a" not found');
  });
});
