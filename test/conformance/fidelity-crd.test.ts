/**
 * Fidelity scenario for custom resources: unlike built-in kinds, the items of a custom resource LIST keep their
 * own apiVersion and kind (kube-apiserver serves them as unstructured objects). Runs on every backend.
 */
import { randomBytes } from "node:crypto";
import { ApiextensionsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
// A group of its own per run, so runs against a shared real cluster never collide.
const group = `f${randomBytes(3).toString("hex")}.fidelity.workbook.example.com`;
const plural = "gizmos";
const crdName = `${plural}.${group}`;

beforeAll(async () => {
  const crds = suite.kubeConfig.makeApiClient(ApiextensionsV1Api);
  await crds.createCustomResourceDefinition({
    body: {
      metadata: { name: crdName },
      spec: {
        group,
        scope: "Namespaced",
        names: { plural, singular: "gizmo", kind: "Gizmo", listKind: "GizmoList" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", x_kubernetes_preserve_unknown_fields: true } },
          },
        ],
      },
    },
  });
  await eventually(
    async () => {
      const crd = await crds.readCustomResourceDefinition({ name: crdName });
      return (crd.status?.conditions ?? []).some((c) => c.type === "Established" && c.status === "True");
    },
    20_000,
    "CRD Established",
  );
  return async () => {
    await crds.deleteCustomResourceDefinition({ name: crdName }).catch(() => undefined);
  };
});

describe("custom resource lists", () => {
  it("keep apiVersion and kind on every item, in LIST and DELETE collection", async () => {
    const namespace = await suite.namespace("gizmo");
    const objects = suite.kubeConfig.makeApiClient(CustomObjectsApi);
    const ref = { group, version: "v1", namespace, plural };
    await eventually(
      () =>
        objects
          .createNamespacedCustomObject({
            ...ref,
            body: { apiVersion: `${group}/v1`, kind: "Gizmo", metadata: { name: "g1" } },
          })
          .then(
            () => true,
            () => false,
          ),
      20_000,
      "custom resource served",
    );
    const list: any = await objects.listNamespacedCustomObject(ref);
    expect(list.kind).toBe("GizmoList");
    expect(list.items.map((i: any) => [i.metadata.name, i.apiVersion, i.kind])).toEqual([
      ["g1", `${group}/v1`, "Gizmo"],
    ]);
    const deleted: any = await objects.deleteCollectionNamespacedCustomObject(ref);
    expect(deleted.items.map((i: any) => [i.metadata.name, i.apiVersion, i.kind])).toEqual([
      ["g1", `${group}/v1`, "Gizmo"],
    ]);
  });
});
