import { randomBytes } from "node:crypto";
import { ApiextensionsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cluster } from "../../src/control-plane/cluster/index.js";
import {
  cleanupNamespaces,
  crdEstablished,
  eventually,
  failure,
  freshNamespace,
  mergePatch,
  startSuiteCluster,
} from "./support.js";

let cluster: Cluster;
let crds: ApiextensionsV1Api;
let objects: CustomObjectsApi;
const namespaces: string[] = [];
// A group of its own per run, so runs against a shared real cluster never collide.
const group = `c${randomBytes(3).toString("hex")}.conformance.workbook.example.com`;
const version = "v1";
const plural = "widgets";

type Obj = any;

beforeAll(async () => {
  cluster = await startSuiteCluster();
  crds = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  objects = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  await crds.createCustomResourceDefinition({
    body: {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `${plural}.${group}` },
      spec: {
        group,
        scope: "Namespaced",
        names: { plural, singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wdg"] },
        versions: [
          {
            name: version,
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: {
                    type: "object",
                    properties: { size: { type: "integer" }, color: { type: "string" } },
                  },
                  status: { type: "object", properties: { ready: { type: "boolean" } } },
                },
              },
            },
          },
        ],
      },
    },
  });
  await crdEstablished(crds, `${plural}.${group}`);
});

afterAll(async () => {
  if (!cluster) return;
  await cleanupNamespaces(cluster.kubeConfig, namespaces);
  await crds.deleteCustomResourceDefinition({ name: `${plural}.${group}` }).catch(() => undefined);
  await cluster.stop();
});

const ns = (prefix: string) => freshNamespace(cluster.kubeConfig, prefix, namespaces);
const ref = (namespace: string) => ({ group, version, namespace, plural });

function widget(name: string, spec: Record<string, unknown> = { size: 1 }): Obj {
  return { apiVersion: `${group}/${version}`, kind: "Widget", metadata: { name }, spec };
}

describe("CRD serving", () => {
  it("an established CRD appears in discovery with its status subresource", async () => {
    await eventually(
      async () => {
        const list = await objects.getAPIResources({ group, version }).catch(() => undefined);
        return (list?.resources ?? []).some((r) => r.name === plural);
      },
      20_000,
      "the resource in discovery",
    );
    const list = await objects.getAPIResources({ group, version });
    const main = list.resources.find((r) => r.name === plural);
    expect(main).toMatchObject({
      kind: "Widget",
      namespaced: true,
      singularName: "widget",
      shortNames: ["wdg"],
    });
    expect(main?.verbs).toEqual(
      expect.arrayContaining(["create", "get", "list", "watch", "update", "patch", "delete"]),
    );
    expect(list.resources.map((r) => r.name)).toContain(`${plural}/status`);
  });

  it("serves create, get, list, patch and delete for custom resources", async () => {
    const namespace = await ns("crd");
    const created: Obj = await objects.createNamespacedCustomObject({
      ...ref(namespace),
      body: widget("w1"),
    });
    expect(created.metadata.uid).toBeTruthy();
    expect(created.apiVersion).toBe(`${group}/${version}`);
    const got: Obj = await objects.getNamespacedCustomObject({ ...ref(namespace), name: "w1" });
    expect(got.spec).toEqual({ size: 1 });
    await objects.createNamespacedCustomObject({ ...ref(namespace), body: widget("w2") });
    const list: Obj = await objects.listNamespacedCustomObject(ref(namespace));
    expect(list.kind).toBe("WidgetList");
    expect(list.items.map((i: Obj) => i.metadata.name).sort()).toEqual(["w1", "w2"]);
    const patched: Obj = await objects.patchNamespacedCustomObject(
      { ...ref(namespace), name: "w1", body: { spec: { color: "red" } } },
      mergePatch,
    );
    expect(patched.spec).toEqual({ size: 1, color: "red" });
    await objects.deleteNamespacedCustomObject({ ...ref(namespace), name: "w1" });
    expect((await failure(objects.getNamespacedCustomObject({ ...ref(namespace), name: "w1" }))).code).toBe(
      404,
    );
  });

  it("rejects an object that violates the CRD schema with 422", async () => {
    const namespace = await ns("schema");
    const { code, status } = await failure(
      objects.createNamespacedCustomObject({ ...ref(namespace), body: widget("bad", { size: "big" }) }),
    );
    expect(code).toBe(422);
    expect(status.reason).toBe("Invalid");
    expect(status.details?.causes?.map((c) => c.field)).toContain("spec.size");
  });

  it("rejects an update without resourceVersion with 422 (custom resources allow no unconditional update)", async () => {
    const namespace = await ns("uncond");
    await objects.createNamespacedCustomObject({ ...ref(namespace), body: widget("w") });
    const { code, status } = await failure(
      objects.replaceNamespacedCustomObject({ ...ref(namespace), name: "w", body: widget("w", { size: 2 }) }),
    );
    expect(code).toBe(422);
    expect(status.details?.causes?.map((c) => c.field)).toContain("metadata.resourceVersion");
  });
});

describe("generation rules with a status subresource", () => {
  it("spec changes bump generation; metadata and status changes do not; each endpoint ignores the other half", async () => {
    const namespace = await ns("gen");
    const v1: Obj = await objects.createNamespacedCustomObject({
      ...ref(namespace),
      body: { ...widget("g"), status: { ready: true } },
    });
    expect(v1.metadata.generation).toBe(1);
    expect(v1.status).toBeUndefined(); // status is dropped on create

    const v2: Obj = await objects.replaceNamespacedCustomObject({
      ...ref(namespace),
      name: "g",
      body: { ...v1, spec: { size: 2 } },
    });
    expect(v2.metadata.generation).toBe(2);

    const v3: Obj = await objects.patchNamespacedCustomObject(
      { ...ref(namespace), name: "g", body: { metadata: { labels: { team: "a" } } } },
      mergePatch,
    );
    expect(v3.metadata.generation).toBe(2);
    expect(v3.metadata.labels).toEqual({ team: "a" });

    // Status through the main endpoint is ignored.
    const v4: Obj = await objects.replaceNamespacedCustomObject({
      ...ref(namespace),
      name: "g",
      body: { ...v3, status: { ready: true } },
    });
    expect(v4.status).toBeUndefined();
    expect(v4.metadata.generation).toBe(2);

    // Through /status: status is written, spec and labels in the body are ignored, generation stays.
    const v5: Obj = await objects.replaceNamespacedCustomObjectStatus({
      ...ref(namespace),
      name: "g",
      body: {
        ...v4,
        spec: { size: 99 },
        metadata: { ...v4.metadata, labels: { team: "b" } },
        status: { ready: true },
      },
    });
    expect(v5.status).toEqual({ ready: true });
    expect(v5.spec).toEqual({ size: 2 });
    expect(v5.metadata.labels).toEqual({ team: "a" });
    expect(v5.metadata.generation).toBe(2);
  });

  it("deletion with a finalizer bumps generation", async () => {
    const namespace = await ns("gendel");
    await objects.createNamespacedCustomObject({
      ...ref(namespace),
      body: { ...widget("d"), metadata: { name: "d", finalizers: ["workbook.example.com/hold"] } },
    });
    await objects.deleteNamespacedCustomObject({ ...ref(namespace), name: "d" });
    const marked: Obj = await objects.getNamespacedCustomObject({ ...ref(namespace), name: "d" });
    expect(marked.metadata.deletionTimestamp).toBeTruthy();
    expect(marked.metadata.generation).toBe(2);
    await objects.patchNamespacedCustomObject(
      { ...ref(namespace), name: "d", body: { metadata: { finalizers: null } } },
      mergePatch,
    );
    expect((await failure(objects.getNamespacedCustomObject({ ...ref(namespace), name: "d" }))).code).toBe(
      404,
    );
  });
});
