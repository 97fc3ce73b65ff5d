import { ApiException, ApiextensionsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, createExampleCrd, eventually, refTo } from "./helpers.js";

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
    const custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const widgets = await createExampleCrd(cluster, "widgets", "Widget");
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

describe("GarbageCollector when a CRD is deleted", () => {
  it("stops watching the resource without reporting the watch's 404 (kube-controller-manager logs it to its own log)", async () => {
    const reported: string[] = [];
    const own = await startCluster({
      backend: "embedded",
      embedded: {
        controllers: { garbageCollector: true, namespace: false },
        onError: (err, context) => reported.push(`${context.component} ${context.operation}: ${String(err)}`),
      },
    });
    try {
      const ext = own.kubeConfig.makeApiClient(ApiextensionsV1Api);
      const custom = own.kubeConfig.makeApiClient(CustomObjectsApi);
      const gadgets = await createExampleCrd(own, "gadgets", "Gadget");
      const served = async () => {
        try {
          await custom.listNamespacedCustomObject(gadgets);
          return true;
        } catch {
          return false;
        }
      };
      expect(await eventually(served)).toBe(true);
      // The collector's monitor for gadgets is up once it has re-discovered; give it the time it takes.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await ext.deleteCustomResourceDefinition({ name: "gadgets.example.com" });
      expect(await eventually(async () => !(await served()))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(reported.filter((line) => line.includes("gadgets"))).toEqual([]);
    } finally {
      await own.stop();
    }
  }, 30_000);
});
