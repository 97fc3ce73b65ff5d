/**
 * Fidelity scenario for custom resources: unlike built-in kinds, the items of a custom resource LIST keep their
 * own apiVersion and kind (kube-apiserver serves them as unstructured objects). Runs on every backend.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:https";
import { ApiextensionsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import { crdEstablished, eventually, useSuiteCluster } from "./support.js";

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
            additionalPrinterColumns: [
              { name: "Size", type: "integer", jsonPath: ".spec.size" },
              { name: "Created", type: "date", jsonPath: ".metadata.creationTimestamp" },
              { name: "Color", type: "string", jsonPath: ".spec.color", priority: 1 },
            ],
            schema: { openAPIV3Schema: { type: "object", x_kubernetes_preserve_unknown_fields: true } },
          },
        ],
      },
    },
  });
  await crdEstablished(crds, crdName);
  return async () => {
    await crds.deleteCustomResourceDefinition({ name: crdName }).catch(() => undefined);
  };
});

/** Creates Gizmo `g1`, retrying until the new CRD is served (a real server establishes it asynchronously). */
async function createWhenServed(
  objects: CustomObjectsApi,
  ref: { group: string; version: string; namespace: string; plural: string },
  fields: Record<string, unknown>,
): Promise<void> {
  const body = { apiVersion: `${group}/v1`, kind: "Gizmo", metadata: { name: "g1" }, ...fields };
  await eventually(
    () =>
      objects.createNamespacedCustomObject({ ...ref, body }).then(
        () => true,
        () => false,
      ),
    20_000,
    "custom resource served",
  );
}

describe("custom resource lists", () => {
  it("keep apiVersion and kind on every item, in LIST and DELETE collection", async () => {
    const namespace = await suite.namespace("gizmo");
    const objects = suite.kubeConfig.makeApiClient(CustomObjectsApi);
    const ref = { group, version: "v1", namespace, plural };
    await createWhenServed(objects, ref, {});
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

describe("custom resource tables", () => {
  it("a LIST asked as Table shows Name and the CRD's printer columns (dates as ages, missing values null)", async () => {
    const namespace = await suite.namespace("gizmotable");
    const objects = suite.kubeConfig.makeApiClient(CustomObjectsApi);
    const ref = { group, version: "v1", namespace, plural };
    await createWhenServed(objects, ref, { spec: { size: 3 } });
    const server = suite.kubeConfig.getCurrentCluster()?.server ?? "";
    const https: Record<string, any> = {
      headers: { accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" },
    };
    await suite.kubeConfig.applyToHTTPSOptions(https);
    const table: any = await new Promise((resolve, reject) => {
      const req = request(
        new URL(`/apis/${group}/v1/namespaces/${namespace}/${plural}`, server),
        https,
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => {
            text += c.toString("utf8");
          });
          res.on("end", () => resolve(JSON.parse(text)));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(table.kind).toBe("Table");
    expect(table.columnDefinitions.map((c: any) => [c.name, c.type, c.priority])).toEqual([
      ["Name", "string", 0],
      ["Size", "integer", 0],
      ["Created", "date", 0],
      ["Color", "string", 1],
    ]);
    expect(table.rows).toHaveLength(1);
    const [name, size, created, color] = table.rows[0].cells;
    expect([name, size, color]).toEqual(["g1", 3, null]);
    expect(created).toMatch(/^\d+s$/);
  });
});
