/**
 * Structural schema defaults of a CRD (`default:` in `openAPIV3Schema`), applied as apiextensions-apiserver applies
 * them: on create and update bodies (also a patch's result), only where the parent exists, inside array items and
 * objects, with `nullable` deciding whether a null stays, and on every read from storage, so a default added to the
 * CRD later shows on objects stored before it. Raw HTTPS, so the objects are compared exactly.
 */
import { randomBytes } from "node:crypto";
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { crdEstablished, eventually, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const group = `d${randomBytes(3).toString("hex")}.conformance.workbook.example.com`;
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const crdName = `gadgets.${group}`;

/** The CRD, with `added` (a property defaulted to "later") only when asked. */
function crd(withAdded: boolean) {
  const specProperties: Record<string, unknown> = {
    replicas: { type: "integer", default: 1 },
    mode: { type: "string", default: "fast" },
    color: { type: "string", default: "red" },
    note: { type: "string", nullable: true, default: "n" },
    tag: { type: "string" },
    nested: { type: "object", properties: { flag: { type: "boolean", default: true } } },
    ports: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, port: { type: "integer", default: 80 } },
      },
    },
    labels: { type: "object", additionalProperties: { type: "string", default: "none" } },
  };
  if (withAdded) specProperties.added = { type: "string", default: "later" };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", properties: specProperties } },
            },
          },
        },
      ],
    },
  };
}

describe("CRD structural schema defaults", () => {
  it("fill create, update and patch bodies where the parent exists, and reads from storage", async () => {
    const kc = suite.kubeConfig;
    expect((await raw(kc, "POST", crdPath, JSON.stringify(crd(false)))).code).toBe(201);
    try {
      await crdEstablished(kc.makeApiClient(ApiextensionsV1Api), crdName);
      const ns = await suite.namespace("defaults");
      const path = `/apis/${group}/v1/namespaces/${ns}/gadgets`;
      const gadget = (name: string, spec?: unknown) =>
        JSON.stringify({
          apiVersion: `${group}/v1`,
          kind: "Gadget",
          metadata: { name },
          ...(spec === undefined ? {} : { spec }),
        });
      let created = await raw(
        kc,
        "POST",
        path,
        gadget("full", {
          ports: [{ name: "a" }, { name: "b", port: 8080 }],
          nested: {},
          labels: { x: null, y: "set" },
          note: null,
          tag: null,
          color: null,
        }),
      );
      for (let i = 0; i < 50 && created.code === 404; i++) {
        await new Promise((r) => setTimeout(r, 100));
        created = await raw(kc, "POST", path, gadget("full", { nested: {} }));
      }
      expect(created.code, JSON.stringify(created.body)).toBe(201);
      // Absent and non-nullable nulls take the default; a nullable null stays; a null without a default is
      // dropped; a map value that is null takes its schema's default, and defaults apply inside every item.
      expect(created.body.spec).toEqual({
        replicas: 1,
        mode: "fast",
        color: "red",
        note: null,
        nested: { flag: true },
        ports: [
          { name: "a", port: 80 },
          { name: "b", port: 8080 },
        ],
        labels: { x: "none", y: "set" },
      });

      // No spec, no defaults inside it: a default never creates its parent.
      const bare = await raw(kc, "POST", path, gadget("bare"));
      expect([bare.code, bare.body.spec]).toEqual([201, undefined]);

      // Update and patch results are defaulted as well.
      const live = await raw(kc, "GET", `${path}/full`);
      const updated = await raw(
        kc,
        "PUT",
        `${path}/full`,
        JSON.stringify({ ...live.body, spec: { replicas: 3 } }),
      );
      expect([updated.code, updated.body.spec]).toEqual([
        200,
        { replicas: 3, mode: "fast", color: "red", note: "n" },
      ]);
      const patched = await raw(
        kc,
        "PATCH",
        `${path}/full`,
        JSON.stringify({ spec: { mode: null, ports: [{ name: "c" }] } }),
        "application/merge-patch+json",
      );
      expect([patched.code, patched.body.spec]).toEqual([
        200,
        { replicas: 3, mode: "fast", color: "red", note: "n", ports: [{ name: "c", port: 80 }] },
      ]);

      // A default added to the CRD later shows on objects stored before it, on GET and LIST.
      const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
      const next = crd(true);
      const replaced = await raw(
        kc,
        "PUT",
        `${crdPath}/${crdName}`,
        JSON.stringify({
          ...next,
          metadata: { ...next.metadata, resourceVersion: current.body.metadata.resourceVersion },
        }),
      );
      expect(replaced.code, JSON.stringify(replaced.body)).toBe(200);
      await eventually(
        async () => (await raw(kc, "GET", `${path}/full`)).body.spec?.added === "later",
        20_000,
        "the new default on GET",
      );
      const listed = await raw(kc, "GET", path);
      const byName = Object.fromEntries(
        listed.body.items.map((o: { metadata: { name: string }; spec?: unknown }) => [
          o.metadata.name,
          o.spec,
        ]),
      );
      expect(byName).toEqual({
        full: {
          replicas: 3,
          mode: "fast",
          color: "red",
          note: "n",
          ports: [{ name: "c", port: 80 }],
          added: "later",
        },
        bare: undefined,
      });
    } finally {
      await raw(kc, "DELETE", `${crdPath}/${crdName}`);
    }
  });
});
