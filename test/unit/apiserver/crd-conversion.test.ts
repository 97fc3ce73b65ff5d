import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { apiError, recorder, setup } from "./helpers.js";

type Version = { name: string; served?: boolean; storage?: boolean; schema?: { openAPIV3Schema: unknown } };

/** `widgets.example.com` at v1alpha1 and v1: only v1alpha1 declares `spec.legacy`, only v1 `spec.size`'s default. */
function twoVersionCrd(storage: "v1alpha1" | "v1", conversion?: unknown, extra: Version[] = []) {
  const spec = (props: Record<string, unknown>) => ({
    openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: props } } },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget" },
      ...(conversion === undefined ? {} : { conversion }),
      versions: [
        {
          name: "v1alpha1",
          served: true,
          storage: storage === "v1alpha1",
          schema: spec({ name: { type: "string" }, legacy: { type: "string" } }),
        },
        {
          name: "v1",
          served: true,
          storage: storage === "v1",
          schema: spec({ name: { type: "string" }, size: { type: "integer", default: 3 } }),
        },
        ...extra,
      ] as Version[],
    },
  };
}

function widget(apiVersion: string, name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion, kind: "Widget", metadata: { name }, spec };
}

describe("multi-version CRDs, conversion strategy None", () => {
  it("stores in the storage version and reads, lists and watches in the version asked", () => {
    const { backend, crds, rt } = setup();
    backend.create(crds, undefined, twoVersionCrd("v1"));
    const alpha = rt("example.com", "v1alpha1", "widgets");
    const v1 = rt("example.com", "v1", "widgets");
    const w = recorder();
    const handle = backend.watch(v1, "default", { resourceVersion: "0" }, w);
    const created = backend.create(
      alpha,
      "default",
      widget("example.com/v1alpha1", "a", { name: "x", legacy: "l" }),
    );
    // Stored as v1: the field only v1alpha1 declares is pruned on the way in, so even the answer lacks it.
    expect(created.apiVersion).toBe("example.com/v1alpha1");
    expect(created.spec).toEqual({ name: "x" });
    // v1 reads show v1's apiVersion; the object was written through v1alpha1 but is stored in v1, so v1's default
    // (applied by the storage codec in the stored version) shows.
    expect(backend.get(v1, "default", "a")).toMatchObject({
      apiVersion: "example.com/v1",
      spec: { name: "x", size: 3 },
    });
    // Read at v1alpha1 the v1 default is pruned: v1alpha1 does not declare size.
    expect(backend.get(alpha, "default", "a").spec).toEqual({ name: "x" });
    expect(backend.list(v1, "default", {}).items.map((o) => o.apiVersion)).toEqual(["example.com/v1"]);
    expect(w.events.map((e) => [e.type, e.object.apiVersion])).toEqual([["ADDED", "example.com/v1"]]);
    handle.stop();
  });

  it("keeps an object in the version it was stored in until it is written again", () => {
    const { backend, crds, rt } = setup();
    const crd = backend.create(crds, undefined, twoVersionCrd("v1alpha1"));
    const alpha = rt("example.com", "v1alpha1", "widgets");
    backend.create(alpha, "default", widget("example.com/v1alpha1", "old", { legacy: "kept" }));
    expect((crd.status as { storedVersions: string[] }).storedVersions).toEqual(["v1alpha1"]);
    // The storage version moves to v1: it is added to storedVersions, the old one stays.
    const moved = backend.update(crds, undefined, "widgets.example.com", {
      ...twoVersionCrd("v1"),
      metadata: { name: "widgets.example.com", resourceVersion: crd.metadata?.resourceVersion },
    });
    expect((moved.status as { storedVersions: string[] }).storedVersions).toEqual(["v1alpha1", "v1"]);
    const alpha2 = rt("example.com", "v1alpha1", "widgets");
    const v1 = rt("example.com", "v1", "widgets");
    // Still stored as v1alpha1: read there the field is kept; read at v1 it is pruned and v1's default not applied.
    expect(backend.get(alpha2, "default", "old").spec).toEqual({ legacy: "kept" });
    expect(backend.get(v1, "default", "old").spec).toEqual({});
    // A write (even one that changes nothing) rewrites it in the new storage version, dropping the field.
    const live = backend.get(alpha2, "default", "old");
    const rewritten = backend.update(alpha2, "default", "old", live);
    expect(rewritten.metadata?.resourceVersion).not.toBe(live.metadata?.resourceVersion);
    expect(rewritten.spec).toEqual({});
  });

  it("validates storedVersions on CRD updates with kube-apiserver's messages", () => {
    const { backend, crds } = setup();
    const crd = backend.create(crds, undefined, twoVersionCrd("v1alpha1"));
    const moved = backend.update(crds, undefined, "widgets.example.com", {
      ...twoVersionCrd("v1"),
      metadata: { name: "widgets.example.com", resourceVersion: crd.metadata?.resourceVersion },
    });
    // Dropping v1alpha1 from spec.versions while it is still in storedVersions is refused.
    const dropped = twoVersionCrd("v1");
    dropped.spec.versions = dropped.spec.versions.filter((v) => v.name === "v1");
    const err = apiError(() =>
      backend.update(crds, undefined, "widgets.example.com", {
        ...dropped,
        metadata: { name: "widgets.example.com", resourceVersion: moved.metadata?.resourceVersion },
      }),
    );
    expect(err.code).toBe(422);
    expect(err.status.details?.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "status.storedVersions[0]",
        message:
          'Invalid value: "v1alpha1": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions',
      },
    ]);
    // After a storage migration removes it from the status, the version can go.
    const migrated = backend.update(
      crds,
      undefined,
      "widgets.example.com",
      { ...moved, status: { ...(moved.status as object), storedVersions: ["v1"] } },
      { subresource: "status" },
    );
    expect((migrated.status as { storedVersions: string[] }).storedVersions).toEqual(["v1"]);
    const after = backend.update(crds, undefined, "widgets.example.com", {
      ...dropped,
      metadata: { name: "widgets.example.com", resourceVersion: migrated.metadata?.resourceVersion },
    });
    expect((after.status as { storedVersions: string[] }).storedVersions).toEqual(["v1"]);
    // A /status write is not checked against spec.versions, and an empty list is defaulted to the storage version.
    const emptied = backend.update(
      crds,
      undefined,
      "widgets.example.com",
      { ...after, status: { ...(after.status as object), storedVersions: [] } },
      { subresource: "status" },
    );
    expect((emptied.status as { storedVersions: string[] }).storedVersions).toEqual(["v1"]);
    const unchecked = backend.update(
      crds,
      undefined,
      "widgets.example.com",
      { ...emptied, status: { ...(emptied.status as object), storedVersions: ["v1", "v0"] } },
      { subresource: "status" },
    );
    expect((unchecked.status as { storedVersions: string[] }).storedVersions).toEqual(["v1", "v0"]);
  });

  it("validates spec.conversion with kube-apiserver's paths and messages", () => {
    const { backend, crds } = setup();
    const causes = (conversion: unknown) =>
      apiError(() =>
        backend.create(crds, undefined, twoVersionCrd("v1", conversion)),
      ).status.details?.causes?.map((c) => `${c.field}: ${c.message}`);
    expect(causes({ strategy: "Magic" })).toEqual([
      'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"',
    ]);
    expect(causes({ strategy: "Webhook" })).toEqual([
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
      "spec.conversion.conversionReviewVersions: Required value",
    ]);
    expect(
      causes({
        strategy: "None",
        webhook: { clientConfig: { url: "https://x" }, conversionReviewVersions: ["v1"] },
      }),
    ).toEqual([
      "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
      "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
    ]);
    expect(
      causes({
        strategy: "Webhook",
        webhook: { clientConfig: { url: "http://x/convert" }, conversionReviewVersions: ["v2", "v2"] },
      }),
    ).toEqual([
      "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
    // Absent conversion is defaulted to strategy None.
    const ok = backend.create(crds, undefined, twoVersionCrd("v1"));
    expect((ok.spec as { conversion: unknown }).conversion).toEqual({ strategy: "None" });
  });

  it("converts objects nested up to the body limit, and answers 400 past it, never overflowing the stack", () => {
    const { backend, crds, rt } = setup();
    const crd = twoVersionCrd("v1");
    for (const v of crd.spec.versions) {
      v.schema = {
        openAPIV3Schema: {
          type: "object",
          properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        },
      };
    }
    backend.create(crds, undefined, crd);
    const alpha = rt("example.com", "v1alpha1", "widgets");
    const v1 = rt("example.com", "v1", "widgets");
    const nested = (levels: number) => {
      let value: unknown = "leaf";
      for (let i = 0; i < levels; i++) value = { d: value };
      return value;
    };
    // The object's own levels (object, spec) plus the nest: just within the 1,000-level limit.
    backend.create(alpha, "default", widget("example.com/v1alpha1", "ok", { d: nested(990) }));
    let depth = 0;
    for (
      let v: unknown = backend.get(v1, "default", "ok").spec;
      typeof v === "object" && v;
      v = (v as { d: unknown }).d
    )
      depth++;
    expect(depth).toBe(991);
    const err = apiError(() =>
      backend.create(alpha, "default", widget("example.com/v1alpha1", "deep", { d: nested(20_000) })),
    );
    expect(err.code).toBe(400);
    expect(() => backend.get(v1, "default", "deep")).toThrow(/not found/);
  });
});
