/**
 * CRDs served at several versions: every object is stored in the version that was the storage version when it
 * was written and read, listed and watched in the version the request names. With `spec.conversion.strategy:
 * None` only `apiVersion` changes and the object is pruned to the target version's schema, so a field only one
 * version declares is lost; `status.storedVersions` gains the storage version when it moves. Raw HTTPS, so the
 * objects are compared exactly.
 */
import { randomBytes } from "node:crypto";
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/apimachinery/object.js";
import { startWebhookServer } from "../../src/control-plane/admission/webhook-server.js";
import {
  apiServerSharesLoopback,
  collect,
  crdEstablished,
  eventually,
  raw,
  useSuiteCluster,
} from "./support.js";

const suite = useSuiteCluster();
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** A fresh group per scenario, so the scenarios do not see each other's CRDs. */
function freshGroup(): string {
  return `c${randomBytes(3).toString("hex")}.conformance.workbook.example.com`;
}

/** `gizmos.<group>` at v1alpha1 and v1, each declaring the `spec` properties given, `storage` the stored one. */
function gizmoCrd(
  group: string,
  storage: "v1alpha1" | "v1",
  props: Record<"v1alpha1" | "v1", Record<string, unknown>>,
  conversion?: unknown,
) {
  const schema = (properties: Record<string, unknown>) => ({
    openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties } } },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `gizmos.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo", listKind: "GizmoList" },
      ...(conversion === undefined ? {} : { conversion }),
      versions: (["v1alpha1", "v1"] as const).map((name) => ({
        name,
        served: true,
        storage: storage === name,
        schema: schema(props[name]),
      })),
    },
  };
}

/** `gizmos.<group>` at v1alpha1 (declares `spec.legacy`) and v1 (declares `spec.size`, default 3). */
function crd(group: string, storage: "v1alpha1" | "v1", conversion?: unknown) {
  return gizmoCrd(
    group,
    storage,
    {
      v1alpha1: { name: { type: "string" }, legacy: { type: "string" } },
      v1: { name: { type: "string" }, size: { type: "integer", default: 3 } },
    },
    conversion,
  );
}

/** Creates the CRD, waits until both versions serve, and returns the two collection paths in `ns`. */
async function served(group: string, ns: string, body: unknown) {
  const kc = suite.kubeConfig;
  const made = await raw(kc, "POST", crdPath, JSON.stringify(body));
  expect(made.code, JSON.stringify(made.body)).toBe(201);
  await crdEstablished(kc.makeApiClient(ApiextensionsV1Api), `gizmos.${group}`);
  const path = (v: string) => `/apis/${group}/${v}/namespaces/${ns}/gizmos`;
  for (const v of ["v1alpha1", "v1"]) {
    await eventually(async () => (await raw(kc, "GET", path(v))).code === 200, 20_000, `${v} served`);
  }
  return { alpha: path("v1alpha1"), v1: path("v1") };
}

function gizmo(group: string, version: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: `${group}/${version}`, kind: "Gizmo", metadata: { name }, spec });
}

describe("CRD versions and conversion", () => {
  it("None: written through v1alpha1, read, listed and watched as v1; v1alpha1's own field is lost", async () => {
    const kc = suite.kubeConfig;
    const group = freshGroup();
    const ns = await suite.namespace("conversion");
    const paths = await served(group, ns, crd(group, "v1"));
    try {
      const watch = await collect(kc, paths.v1, { allowWatchBookmarks: false });
      try {
        const created = await raw(
          kc,
          "POST",
          paths.alpha,
          gizmo(group, "v1alpha1", "a", { name: "x", legacy: "l" }),
        );
        expect(created.code, JSON.stringify(created.body)).toBe(201);
        // Stored in v1, which does not declare `legacy`: it is pruned on the way in, so even the answer lacks it.
        expect([created.body.apiVersion, created.body.spec]).toEqual([`${group}/v1alpha1`, { name: "x" }]);

        const got = await raw(kc, "GET", `${paths.v1}/a`);
        expect([got.body.apiVersion, got.body.kind, got.body.spec]).toEqual([
          `${group}/v1`,
          "Gizmo",
          { name: "x", size: 3 },
        ]);
        expect(got.body.metadata.uid).toBe(created.body.metadata.uid);
        const back = await raw(kc, "GET", `${paths.alpha}/a`);
        expect([back.body.apiVersion, back.body.spec]).toEqual([`${group}/v1alpha1`, { name: "x" }]);

        const listed = await raw(kc, "GET", paths.v1);
        expect(listed.body.apiVersion).toBe(`${group}/v1`);
        expect(
          listed.body.items.map((o: { apiVersion: string; spec: unknown }) => [o.apiVersion, o.spec]),
        ).toEqual([[`${group}/v1`, { name: "x", size: 3 }]]);

        await eventually(() => watch.events.length >= 1, 20_000, "the ADDED event on the v1 watch");
        expect(watch.events.map((e) => [e.type, e.object.apiVersion, e.object.spec])).toEqual([
          ["ADDED", `${group}/v1`, { name: "x", size: 3 }],
        ]);

        // Written through v1 and read through v1alpha1: v1's field is pruned there.
        const v1made = await raw(kc, "POST", paths.v1, gizmo(group, "v1", "b", { name: "y", size: 7 }));
        expect([v1made.code, v1made.body.spec]).toEqual([201, { name: "y", size: 7 }]);
        const asAlpha = await raw(kc, "GET", `${paths.alpha}/b`);
        expect([asAlpha.body.apiVersion, asAlpha.body.spec]).toEqual([`${group}/v1alpha1`, { name: "y" }]);
      } finally {
        watch.stop();
      }
    } finally {
      await raw(kc, "DELETE", `${crdPath}/gizmos.${group}`);
    }
  });

  it("None: storedVersions gains the new storage version; old objects stay as written until rewritten", async () => {
    const kc = suite.kubeConfig;
    const group = freshGroup();
    const ns = await suite.namespace("conversion");
    const paths = await served(group, ns, crd(group, "v1alpha1"));
    const name = `gizmos.${group}`;
    try {
      const created = await raw(kc, "POST", paths.alpha, gizmo(group, "v1alpha1", "old", { legacy: "kept" }));
      expect(created.code, JSON.stringify(created.body)).toBe(201);
      const before = await raw(kc, "GET", `${crdPath}/${name}`);
      expect(before.body.status.storedVersions).toEqual(["v1alpha1"]);
      expect(before.body.spec.conversion).toEqual({ strategy: "None" });

      const moved = await raw(
        kc,
        "PUT",
        `${crdPath}/${name}`,
        JSON.stringify({
          ...crd(group, "v1"),
          metadata: { name, resourceVersion: before.body.metadata.resourceVersion },
        }),
      );
      expect(moved.code, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.status.storedVersions).toEqual(["v1alpha1", "v1"]);

      // Still stored in v1alpha1: its field is there at v1alpha1; at v1 it is pruned, and v1's default is not
      // applied to an object stored in another version.
      await eventually(
        async () => {
          const o = await raw(kc, "POST", paths.alpha, gizmo(group, "v1alpha1", "probe", { legacy: "p" }));
          if (o.code !== 201) return false;
          await raw(kc, "DELETE", `${paths.alpha}/probe`);
          return o.body.spec?.legacy === undefined;
        },
        20_000,
        "writes stored in v1",
      );
      const alphaRead = await raw(kc, "GET", `${paths.alpha}/old`);
      expect(alphaRead.body.spec).toEqual({ legacy: "kept" });
      const v1Read = await raw(kc, "GET", `${paths.v1}/old`);
      expect([v1Read.body.apiVersion, v1Read.body.spec]).toEqual([`${group}/v1`, {}]);

      // Removing v1alpha1 while it is in storedVersions is refused, as kube-apiserver refuses it.
      const onlyV1 = crd(group, "v1");
      onlyV1.spec.versions = onlyV1.spec.versions.filter((v) => v.name === "v1");
      const refused = await raw(
        kc,
        "PUT",
        `${crdPath}/${name}`,
        JSON.stringify({
          ...onlyV1,
          metadata: { name, resourceVersion: moved.body.metadata.resourceVersion },
        }),
      );
      expect(refused.code).toBe(422);
      expect(refused.body.details.causes).toEqual([
        {
          reason: "FieldValueInvalid",
          field: "status.storedVersions[0]",
          message:
            'Invalid value: "v1alpha1": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions',
        },
      ]);

      // A storage migration: rewrite every object (a no-op update stores it in v1), then drop v1alpha1 from the
      // status and from spec.versions.
      const live = await raw(kc, "GET", `${paths.alpha}/old`);
      const rewritten = await raw(kc, "PUT", `${paths.alpha}/old`, JSON.stringify(live.body));
      expect(rewritten.code).toBe(200);
      expect(rewritten.body.spec).toEqual({});
      const current = await raw(kc, "GET", `${crdPath}/${name}`);
      const migrated = await raw(
        kc,
        "PUT",
        `${crdPath}/${name}/status`,
        JSON.stringify({ ...current.body, status: { ...current.body.status, storedVersions: ["v1"] } }),
      );
      expect([migrated.code, migrated.body.status?.storedVersions]).toEqual([200, ["v1"]]);
      const dropped = await raw(
        kc,
        "PUT",
        `${crdPath}/${name}`,
        JSON.stringify({
          ...onlyV1,
          metadata: { name, resourceVersion: migrated.body.metadata.resourceVersion },
        }),
      );
      expect([dropped.code, dropped.body.status?.storedVersions]).toEqual([200, ["v1"]]);

      // A /status write that empties the list gets the storage version back (the v1 defaulting of a CRD).
      const emptied = await raw(
        kc,
        "PUT",
        `${crdPath}/${name}/status`,
        JSON.stringify({ ...dropped.body, status: { ...dropped.body.status, storedVersions: [] } }),
      );
      expect([emptied.code, emptied.body.status?.storedVersions]).toEqual([200, ["v1"]]);
    } finally {
      await raw(kc, "DELETE", `${crdPath}/gizmos.${group}`);
    }
  });

  describe("strategy Webhook", () => {
    /** v1alpha1 keeps `spec.count` as a string, v1 keeps `spec.size` as an integer. */
    function webhookCrd(group: string, url: string, caBundle: string) {
      return gizmoCrd(
        group,
        "v1",
        { v1alpha1: { count: { type: "string" } }, v1: { size: { type: "integer" } } },
        {
          strategy: "Webhook",
          webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ["v1"] },
        },
      );
    }

    /** The conversion both ways, and a mode that renames the object (which kube-apiserver refuses). */
    function converter(state: { rename: boolean }) {
      return (obj: KubeObject, desired: string): KubeObject => {
        const spec = (obj.spec ?? {}) as Record<string, unknown>;
        const next: KubeObject = { ...obj, apiVersion: desired };
        if (desired.endsWith("/v1")) next.spec = { size: Number(spec.count ?? 0) };
        else next.spec = { count: String(spec.size ?? 0) };
        if (state.rename) next.metadata = { ...obj.metadata, name: "renamed" };
        return next;
      };
    }

    it("round trip: written through v1alpha1, stored and read as v1, read back as v1alpha1", async (ctx) => {
      if (!apiServerSharesLoopback(suite.cluster)) ctx.skip();
      const kc = suite.kubeConfig;
      const state = { rename: false };
      const server = await startWebhookServer({ convert: converter(state) });
      const group = freshGroup();
      try {
        const ns = await suite.namespace("conversion");
        const paths = await served(group, ns, webhookCrd(group, server.convertUrl, server.caBundle));
        const watch = await collect(kc, paths.alpha, {});
        try {
          const created = await raw(kc, "POST", paths.alpha, gizmo(group, "v1alpha1", "w", { count: "5" }));
          expect(created.code, JSON.stringify(created.body)).toBe(201);
          expect([created.body.apiVersion, created.body.spec]).toEqual([`${group}/v1alpha1`, { count: "5" }]);
          const asV1 = await raw(kc, "GET", `${paths.v1}/w`);
          expect([asV1.body.apiVersion, asV1.body.spec]).toEqual([`${group}/v1`, { size: 5 }]);
          const listed = await raw(kc, "GET", paths.alpha);
          expect(listed.body.items.map((o: KubeObject) => [o.apiVersion, o.spec])).toEqual([
            [`${group}/v1alpha1`, { count: "5" }],
          ]);
          await eventually(() => watch.events.length >= 1, 20_000, "the ADDED event on the v1alpha1 watch");
          expect(watch.events.map((e) => [e.type, e.object.apiVersion, e.object.spec])).toEqual([
            ["ADDED", `${group}/v1alpha1`, { count: "5" }],
          ]);
          // An update through v1alpha1 is converted to the storage version as well.
          const patched = await raw(
            kc,
            "PATCH",
            `${paths.alpha}/w`,
            JSON.stringify({ spec: { count: "8" } }),
            "application/merge-patch+json",
          );
          expect([patched.code, patched.body.spec]).toEqual([200, { count: "8" }]);
          expect((await raw(kc, "GET", `${paths.v1}/w`)).body.spec).toEqual({ size: 8 });
          // What the webhook was sent: ConversionReview v1 requests with a uid, one desired version each.
          const desired = new Set(server.conversions.map((r) => r.desiredAPIVersion));
          expect(desired).toEqual(new Set([`${group}/v1`, `${group}/v1alpha1`]));
          for (const r of server.conversions) {
            expect(r.uid).toMatch(/^[0-9a-f-]{36}$/);
            expect(r.objects.every((o) => o.apiVersion !== r.desiredAPIVersion && o.kind === "Gizmo")).toBe(
              true,
            );
          }

          // A webhook that changes the name is refused.
          state.rename = true;
          const renamed = await raw(kc, "GET", `${paths.alpha}/w`);
          expect(renamed.code).toBe(500);
          expect(renamed.body.message).toContain(
            `conversion webhook for ${group}/v1, Kind=Gizmo returned invalid object: must have the same name: w != renamed`,
          );
        } finally {
          watch.stop();
        }
      } finally {
        await raw(kc, "DELETE", `${crdPath}/gizmos.${group}`);
        await server.stop();
      }
    });

    it("a webhook that is down fails conversions with kube-apiserver's error", async (ctx) => {
      if (!apiServerSharesLoopback(suite.cluster)) ctx.skip();
      const kc = suite.kubeConfig;
      const server = await startWebhookServer({ convert: converter({ rename: false }) });
      const group = freshGroup();
      try {
        const ns = await suite.namespace("conversion");
        const paths = await served(group, ns, webhookCrd(group, server.convertUrl, server.caBundle));
        const made = await raw(kc, "POST", paths.v1, gizmo(group, "v1", "d", { size: 2 }));
        expect(made.code, JSON.stringify(made.body)).toBe(201);
        await server.stop();
        // The storage version needs no conversion; the other one does, and the call fails.
        expect((await raw(kc, "GET", `${paths.v1}/d`)).body.spec).toEqual({ size: 2 });
        const down = `Post "${server.convertUrl}?timeout=30s": dial tcp ${new URL(server.url).host}: connect: connection refused`;
        const got = await raw(kc, "GET", `${paths.alpha}/d`);
        // kube-apiserver's Status carries no reason here, only the code and the message.
        expect([got.code, got.body.status, got.body.reason]).toEqual([500, "Failure", undefined]);
        expect(got.body.message).toContain(`conversion webhook for ${group}/v1, Kind=Gizmo failed: ${down}`);
        const created = await raw(kc, "POST", paths.alpha, gizmo(group, "v1alpha1", "e", { count: "1" }));
        expect(created.code).toBe(500);
        expect(created.body.message).toContain(
          `conversion webhook for ${group}/v1alpha1, Kind=Gizmo failed: ${down}`,
        );
      } finally {
        await raw(kc, "DELETE", `${crdPath}/gizmos.${group}`);
        await server.stop();
      }
    });
  });
});
