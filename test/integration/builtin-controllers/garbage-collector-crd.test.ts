import { ApiException, ApiextensionsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, eventually, refTo } from "./helpers.js";

/** The collector re-discovers resources when a CRD appears, and then collects custom resources too. */

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: true, namespace: false } },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("GarbageCollector and CustomResourceDefinitions", () => {
  it("watches a CRD created after it started: custom resources own and are owned", async () => {
    const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
    const custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    await ext.createCustomResourceDefinition({
      body: {
        metadata: { name: "widgets.example.com" },
        spec: {
          group: "example.com",
          scope: "Namespaced",
          names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
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
    const widgets = { group: "example.com", version: "v1", namespace: "default", plural: "widgets" };
    const exists = async (name: string) => {
      try {
        await custom.getNamespacedCustomObject({ ...widgets, name });
        return true;
      } catch (err) {
        if (err instanceof ApiException && err.code === 404) return false;
        throw err;
      }
    };
    const cms = configMaps(cluster, "default");
    const cmOwner = await cms.create("cm-owner");
    let widget: { metadata: { uid: string } } | undefined;
    expect(
      await eventually(async () => {
        try {
          widget = await custom.createNamespacedCustomObject({
            ...widgets,
            body: { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } },
          });
          return true;
        } catch {
          return false; // the CRD may take a moment to be served
        }
      }),
    ).toBe(true);
    await custom.createNamespacedCustomObject({
      ...widgets,
      body: {
        apiVersion: "example.com/v1",
        kind: "Widget",
        metadata: { name: "w-kid", ownerReferences: [refTo(cmOwner)] },
      },
    });
    await cms.create("cm-kid", [
      { apiVersion: "example.com/v1", kind: "Widget", name: "w", uid: widget!.metadata.uid },
    ]);

    await custom.deleteNamespacedCustomObject({ ...widgets, name: "w", propagationPolicy: "Background" });
    expect(await eventually(async () => !(await cms.exists("cm-kid")))).toBe(true);
    await cms.delete("cm-owner", "Background");
    expect(await eventually(async () => !(await exists("w-kid")))).toBe(true);
  }, 30_000);
});
