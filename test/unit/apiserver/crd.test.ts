import { describe, expect, it } from "vitest";
import { apiError, recorder, setup, widgetCrd } from "./helpers.js";

describe("CustomResourceDefinitions", () => {
  it("a created CRD is Established and serves its kind at once, notifying listeners", () => {
    const { backend, crds } = setup();
    let changes = 0;
    backend.onResourcesChanged(() => changes++);
    expect(backend.findResource("example.com", "v1", "widgets")).toBeUndefined();
    const crd = backend.create(crds, undefined, widgetCrd());
    const status = crd.status as {
      conditions: { type: string; status: string }[];
      acceptedNames: Record<string, unknown>;
    };
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([
      ["NamesAccepted", "True"],
      ["Established", "True"],
    ]);
    expect(status.acceptedNames).toMatchObject({
      plural: "widgets",
      kind: "Widget",
      listKind: "WidgetList",
      singular: "widget",
    });
    expect(changes).toBeGreaterThan(0);
    const rt = backend.findResource("example.com", "v1", "widgets")!;
    expect(rt).toMatchObject({ kind: "Widget", namespaced: true, shortNames: ["wd"], subresources: [] });
    expect(backend.resourceTypes().some((t) => t.resource === "widgets")).toBe(true);
    const w = backend.create(rt, "default", {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: {},
    });
    expect(w.metadata?.generation).toBe(1);
    expect(backend.list(rt, "default", {}).kind).toBe("WidgetList");
    // a CRD write that does not change what is served does not notify
    const before = changes;
    backend.update(crds, undefined, "widgets.example.com", {
      ...crd,
      metadata: { ...crd.metadata, labels: { x: "y" } },
    });
    expect(changes).toBe(before);
    const c2 = backend.get(crds, undefined, "widgets.example.com");
    backend.update(crds, undefined, "widgets.example.com", {
      ...c2,
      spec: { ...(c2.spec as object), names: { plural: "widgets", kind: "Widget", shortNames: ["w2"] } },
    });
    expect(changes).toBe(before + 1);
    expect(backend.findResource("example.com", "v1", "widgets")?.shortNames).toEqual(["w2"]);
  });

  it("serves cluster-scoped kinds and the status subresource when declared", () => {
    const { backend, crds } = setup();
    backend.create(crds, undefined, widgetCrd({ scope: "Cluster", status: true }));
    const rt = backend.findResource("example.com", "v1", "widgets")!;
    expect(rt.namespaced).toBe(false);
    expect(rt.subresources).toEqual(["status"]);
    const w = backend.create(rt, "default", { metadata: { name: "w" } });
    expect(w.metadata?.namespace).toBeUndefined();
  });

  it("validates CRD basics (422)", () => {
    const { backend, crds } = setup();
    const bad = (mutate: (c: ReturnType<typeof widgetCrd>) => void) => {
      const c = widgetCrd();
      mutate(c);
      return apiError(() => backend.create(crds, undefined, c));
    };
    expect(bad((c) => (c.metadata.name = "gadgets.example.com")).status.details?.causes?.[0]?.field).toBe(
      "metadata.name",
    );
    expect(bad((c) => (c.spec.names.plural = "")).status.details?.causes?.map((x) => x.field)).toContain(
      "spec.names.plural",
    );
    expect(bad((c) => (c.spec.names.kind = "")).status.details?.causes?.map((x) => x.field)).toContain(
      "spec.names.kind",
    );
    expect(bad((c) => (c.spec.scope = "Galaxy" as "Cluster")).code).toBe(422);
    expect(bad((c) => (c.spec.versions[0]!.storage = false)).code).toBe(422);
    const leases = bad((c) => {
      c.metadata.name = "leases.coordination.k8s.io";
      c.spec.group = "coordination.k8s.io";
      c.spec.names.plural = "leases";
    });
    expect(leases.status.details?.causes?.[0]?.field).toBe(
      "metadata.annotations[api-approved.kubernetes.io]",
    );
    expect(backend.findResource("example.com", "v1", "widgets")).toBeUndefined();
  });

  it("never lets a CRD shadow a built-in kind", () => {
    const { backend, crds, leases } = setup();
    backend.create(leases, "default", { metadata: { name: "l" } });
    const c = widgetCrd();
    c.metadata = {
      name: "leases.coordination.k8s.io",
      annotations: { "api-approved.kubernetes.io": "unapproved" },
    } as typeof c.metadata;
    c.spec.group = "coordination.k8s.io";
    c.spec.names.plural = "leases";
    backend.create(crds, undefined, c);
    expect(backend.findResource("coordination.k8s.io", "v1", "leases")?.kind).toBe("Lease");
    backend.delete(crds, undefined, "leases.coordination.k8s.io");
    expect(backend.get(leases, "default", "l").metadata?.name).toBe("l");
  });

  it("validates custom objects against openAPIV3Schema (types, required, enum)", () => {
    const { backend, crds } = setup();
    const schema = {
      type: "object",
      required: ["spec"],
      properties: {
        spec: {
          type: "object",
          required: ["size"],
          properties: { size: { type: "integer" }, color: { type: "string", enum: ["red", "blue"] } },
        },
      },
    };
    backend.create(crds, undefined, widgetCrd({ schema }));
    const rt = backend.findResource("example.com", "v1", "widgets")!;
    const wrongType = apiError(() =>
      backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: "big" } }),
    );
    expect(wrongType.code).toBe(422);
    expect(wrongType.status.details?.causes?.[0]).toMatchObject({
      field: "spec.size",
      message: 'Invalid value: "string": spec.size in body must be of type integer: "string"',
    });
    expect(
      apiError(() => backend.create(rt, "default", { metadata: { name: "w" } })).status.details?.causes?.[0]
        ?.field,
    ).toBe("spec");
    expect(
      apiError(() =>
        backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: 1, color: "green" } }),
      ).code,
    ).toBe(422);
    expect(
      backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: 1, color: "red" } }).spec,
    ).toEqual({ size: 1, color: "red" });
  });

  it("checks minimum and maximum of numbers with apiextensions' wording (422)", () => {
    const { backend, crds } = setup();
    const schema = {
      type: "object",
      properties: {
        spec: { type: "object", properties: { size: { type: "integer", minimum: 0, maximum: 50 } } },
      },
    };
    backend.create(crds, undefined, widgetCrd({ schema }));
    const rt = backend.findResource("example.com", "v1", "widgets")!;
    const low = apiError(() =>
      backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: -1 } }),
    );
    expect(low.code).toBe(422);
    expect(low.status.details?.causes?.[0]).toMatchObject({
      field: "spec.size",
      message: "Invalid value: -1: spec.size in body should be greater than or equal to 0",
    });
    const high = apiError(() =>
      backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: 51 } }),
    );
    expect(high.status.details?.causes?.[0]?.message).toContain("should be less than or equal to 50");
    expect(backend.create(rt, "default", { metadata: { name: "w" }, spec: { size: 50 } }).spec).toEqual({
      size: 50,
    });
  });

  it("deleting the CRD deletes its objects (DELETED events), closes watches and stops serving", () => {
    const { backend, crds } = setup();
    backend.create(crds, undefined, widgetCrd());
    const rt = backend.findResource("example.com", "v1", "widgets")!;
    backend.create(rt, "default", { metadata: { name: "a", finalizers: ["example.com/f"] } });
    backend.create(rt, "kube-system", { metadata: { name: "b" } });
    const sink = recorder();
    backend.watch(rt, undefined, { resourceVersion: String(backend.currentRevision()) }, sink);
    let changes = 0;
    backend.onResourcesChanged(() => changes++);
    backend.delete(crds, undefined, "widgets.example.com");
    expect(sink.events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual([
      "DELETED a",
      "DELETED b",
    ]);
    expect(sink.closed).toBe(true);
    expect(changes).toBeGreaterThan(0);
    expect(backend.findResource("example.com", "v1", "widgets")).toBeUndefined();
    expect(apiError(() => backend.list(rt, undefined, {})).code).toBe(404);
    // re-creating the CRD starts empty
    backend.create(crds, undefined, widgetCrd());
    expect(backend.list(rt, undefined, {}).items).toEqual([]);
  });

  it("a CRD held by a finalizer stops serving at DELETE and is not re-served by later updates", () => {
    const { backend, crds } = setup();
    const c = widgetCrd();
    backend.create(crds, undefined, { ...c, metadata: { ...c.metadata, finalizers: ["example.com/hold"] } });
    const deleting = backend.delete(crds, undefined, "widgets.example.com");
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    expect(backend.findResource("example.com", "v1", "widgets")).toBeUndefined();
    const labelled = backend.update(crds, undefined, "widgets.example.com", {
      ...deleting,
      metadata: { ...deleting.metadata, labels: { a: "b" } },
    });
    expect(backend.findResource("example.com", "v1", "widgets")).toBeUndefined();
    backend.update(crds, undefined, "widgets.example.com", {
      ...labelled,
      metadata: { ...labelled.metadata, finalizers: [] },
    });
    expect(apiError(() => backend.get(crds, undefined, "widgets.example.com")).code).toBe(404);
  });

  it("serves every served version, presenting objects in the requested apiVersion", () => {
    const { backend, crds } = setup();
    const crd = widgetCrd();
    crd.spec.versions.push({ name: "v2", served: true, storage: false });
    backend.create(crds, undefined, crd);
    const v1 = backend.findResource("example.com", "v1", "widgets")!;
    const v2 = backend.findResource("example.com", "v2", "widgets")!;
    backend.create(v1, "default", { metadata: { name: "w" } });
    expect(backend.get(v2, "default", "w").apiVersion).toBe("example.com/v2");
    expect(JSON.parse(backend.listJson(v2, "default", {}).toString()).items[0].apiVersion).toBe(
      "example.com/v2",
    );
    const sink = recorder();
    backend.watch(v2, "default", { resourceVersion: "0" }, sink);
    expect(sink.events[0]!.object.apiVersion).toBe("example.com/v2");
  });
});
