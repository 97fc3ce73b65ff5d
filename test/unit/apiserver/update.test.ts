import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { apiError, configMap, recorder, setup, widgetCrd } from "./helpers.js";

const deployment = (name: string) => ({
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
  },
});

function withWidgets(status: boolean) {
  const s = setup();
  s.backend.create(s.crds, undefined, widgetCrd({ status }));
  return { ...s, widgets: s.rt("example.com", "v1", "widgets") };
}

describe("backend update", () => {
  it("a no-op update keeps the resourceVersion and emits no watch event", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a", { k: "v" }));
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: a.metadata!.resourceVersion! }, sink);
    const same = backend.update(cm, "default", "a", { ...a });
    expect(same.metadata?.resourceVersion).toBe(a.metadata?.resourceVersion);
    expect(backend.currentRevision()).toBe(Number(a.metadata?.resourceVersion));
    expect(sink.events).toHaveLength(0);
  });

  it("built-ins update unconditionally without a resourceVersion; custom resources get 422", () => {
    const { backend, cm, widgets } = withWidgets(false);
    backend.create(cm, "default", configMap("a", { k: "1" }));
    const u = backend.update(cm, "default", "a", configMap("a", { k: "2" }));
    expect(u.data).toEqual({ k: "2" });
    backend.create(widgets, "default", { metadata: { name: "w" }, spec: { size: 1 } });
    const err = apiError(() =>
      backend.update(widgets, "default", "w", { metadata: { name: "w" }, spec: { size: 2 } }),
    );
    expect(err.code).toBe(422);
    expect(err.message).toBe(
      'Widget.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
  });

  it("404 when updating a missing object; 400 when the body names another object", () => {
    const { backend, cm } = setup();
    expect(apiError(() => backend.update(cm, "default", "nope", configMap("nope"))).code).toBe(404);
    backend.create(cm, "default", configMap("a"));
    expect(apiError(() => backend.update(cm, "default", "a", configMap("b"))).code).toBe(400);
  });

  it("keeps uid, creationTimestamp and generation from the stored object", async () => {
    const { backend, deployments, clock } = setup();
    const d = backend.create(deployments, "default", deployment("web"));
    await clock.advance(5_000);
    const u = backend.update(deployments, "default", "web", {
      ...d,
      metadata: {
        ...d.metadata,
        uid: "",
        creationTimestamp: "1999-01-01T00:00:00Z",
        generation: 40,
        labels: { x: "y" },
      },
    });
    expect(u.metadata?.uid).toBe(d.metadata?.uid);
    expect(u.metadata?.creationTimestamp).toBe(d.metadata?.creationTimestamp);
    expect(u.metadata?.generation).toBe(1);
    expect(u.metadata?.labels).toEqual({ x: "y" });
    // A different uid in a PUT body is a storage precondition: 409, in the storage layer's words.
    const wrongUid = apiError(() =>
      backend.update(deployments, "default", "web", { ...u, metadata: { ...u.metadata, uid: "other" } }),
    );
    expect(wrongUid.code).toBe(409);
    expect(wrongUid.message).toBe(
      `Operation cannot be fulfilled on deployments.apps "web": StorageError: invalid object, Code: 4, Key: /registry/deployments/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${d.metadata?.uid}`,
    );
    // The same change through a patch is an immutable-field error (422), as ValidateObjectMetaUpdate says.
    const patched = apiError(() =>
      backend.patch(deployments, "default", "web", "application/merge-patch+json", {
        metadata: { uid: "x" },
      }),
    );
    expect(patched.code).toBe(422);
    expect(patched.message).toBe(
      'Deployment.apps "web" is invalid: metadata.uid: Invalid value: "x": field is immutable',
    );
    // A resourceVersion the storage layer cannot parse is its bare 500.
    const garbage = apiError(() =>
      backend.update(deployments, "default", "web", {
        ...u,
        metadata: { ...u.metadata, resourceVersion: "abc" },
      }),
    );
    expect(garbage.code).toBe(500);
    expect(garbage.message).toBe('strconv.ParseUint: parsing "abc": invalid syntax');
  });

  it("Deployment generation: +1 on spec or annotation changes, not on labels or status", () => {
    const { backend, deployments } = setup();
    let d = backend.create(deployments, "default", deployment("web"));
    const gen = () => d.metadata?.generation;
    d = backend.update(deployments, "default", "web", {
      ...d,
      metadata: { ...d.metadata, labels: { a: "b" } },
    });
    expect(gen()).toBe(1);
    d = backend.update(deployments, "default", "web", { ...d, spec: { ...(d.spec as object), replicas: 3 } });
    expect(gen()).toBe(2);
    d = backend.update(deployments, "default", "web", {
      ...d,
      metadata: { ...d.metadata, annotations: { n: "1" } },
    });
    expect(gen()).toBe(3);
    d = backend.update(
      deployments,
      "default",
      "web",
      { ...d, status: { replicas: 3 } },
      { subresource: "status" },
    );
    expect(gen()).toBe(3);
    expect(d.status).toEqual({ replicas: 3 });
  });

  it("status subresource: main endpoint ignores status, /status ignores spec and keeps labels (Deployment)", () => {
    const { backend, deployments } = setup();
    const d = backend.create(deployments, "default", { ...deployment("web"), status: { replicas: 9 } });
    expect(d.status).toBeUndefined();
    const main = backend.update(deployments, "default", "web", { ...d, status: { replicas: 5 } });
    expect(main.status).toBeUndefined();
    const st = backend.update(
      deployments,
      "default",
      "web",
      {
        ...main,
        spec: { ...(main.spec as object), replicas: 7 },
        metadata: { ...main.metadata, labels: { l: "x" } },
        status: { replicas: 1 },
      },
      { subresource: "status" },
    );
    expect(st.status).toEqual({ replicas: 1 });
    expect((st.spec as { replicas: number }).replicas).toBe(1);
    expect(st.metadata?.labels).toBeUndefined();
    const stale = apiError(() =>
      backend.update(deployments, "default", "web", { ...main, status: {} }, { subresource: "status" }),
    );
    expect(stale.code).toBe(409);
  });

  it("custom resources: generation bumps outside metadata; /status takes only .status", () => {
    const { backend, widgets } = withWidgets(true);
    let w: KubeObject = backend.create(widgets, "default", {
      metadata: { name: "w" },
      spec: { size: 1 },
      status: { ready: true },
    });
    expect(w.status).toBeUndefined();
    expect(w.metadata?.generation).toBe(1);
    w = backend.update(widgets, "default", "w", { ...w, metadata: { ...w.metadata, labels: { a: "b" } } });
    expect(w.metadata?.generation).toBe(1);
    w = backend.update(widgets, "default", "w", { ...w, spec: { size: 2 }, extra: "top-level" });
    expect(w.metadata?.generation).toBe(2);
    w = backend.update(widgets, "default", "w", { ...w, status: { ready: true } });
    expect(w.status).toBeUndefined();
    expect(w.metadata?.generation).toBe(2);
    w = backend.update(
      widgets,
      "default",
      "w",
      {
        ...w,
        metadata: { ...w.metadata, labels: { changed: "yes" } },
        spec: { size: 99 },
        status: { ready: true },
      },
      { subresource: "status" },
    );
    expect(w.status).toEqual({ ready: true });
    expect(w.metadata?.labels).toEqual({ a: "b" });
    expect(w.spec).toEqual({ size: 2 });
    expect(w.metadata?.generation).toBe(2);
  });

  it("custom resources without a status subresource: status is spec-like and bumps generation", () => {
    const { backend, widgets } = withWidgets(false);
    let w = backend.create(widgets, "default", { metadata: { name: "w" }, status: { a: 1 } });
    expect(w.status).toEqual({ a: 1 });
    w = backend.update(widgets, "default", "w", { ...w, status: { a: 2 } });
    expect(w.metadata?.generation).toBe(2);
    expect(apiError(() => backend.update(widgets, "default", "w", w, { subresource: "status" })).code).toBe(
      404,
    );
  });

  it("namespaces: updates cannot change spec.finalizers or status; /finalize can", () => {
    const { backend, ns } = setup();
    const n = backend.create(ns, undefined, { metadata: { name: "team" } });
    const u = backend.update(ns, undefined, "team", {
      ...n,
      spec: { finalizers: [] },
      status: { phase: "Terminating" },
      metadata: { ...n.metadata, labels: { a: "b" } },
    });
    expect(u.spec).toEqual({ finalizers: ["kubernetes"] });
    expect(u.status).toEqual({ phase: "Active" });
    const f = backend.update(
      ns,
      undefined,
      "team",
      { ...u, spec: { finalizers: [] } },
      { subresource: "finalize" },
    );
    expect(f.spec).toEqual({ finalizers: [] });
    expect(f.metadata?.labels).toEqual({ a: "b", "kubernetes.io/metadata.name": n.metadata!.name });
  });

  it("objects being deleted accept no new finalizers (422), and emptying finalizers removes them", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", { metadata: { name: "a", finalizers: ["example.com/keep"] } });
    const deleting = backend.delete(cm, "default", "a");
    expect(deleting.metadata?.deletionTimestamp).toBe("2026-01-01T00:00:00Z");
    const more = apiError(() =>
      backend.update(cm, "default", "a", {
        ...deleting,
        metadata: { ...deleting.metadata, finalizers: ["example.com/keep", "example.com/new"] },
      }),
    );
    expect(more.code).toBe(422);
    expect(more.status.details?.causes?.[0]?.message).toContain(
      "no new finalizers can be added if the object is being deleted",
    );
    // deletionTimestamp cannot be removed by an update
    const kept = backend.update(cm, "default", "a", {
      ...deleting,
      metadata: { ...deleting.metadata, deletionTimestamp: undefined, labels: { x: "1" } },
    });
    expect(kept.metadata?.deletionTimestamp).toBe("2026-01-01T00:00:00Z");
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: kept.metadata!.resourceVersion! }, sink);
    backend.update(cm, "default", "a", { ...kept, metadata: { ...kept.metadata, finalizers: [] } });
    expect(apiError(() => backend.get(cm, "default", "a")).code).toBe(404);
    expect(sink.events.map((e) => e.type)).toEqual(["DELETED"]);
  });
});
