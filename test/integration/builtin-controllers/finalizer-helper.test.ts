import { ApiException, PatchStrategy, setHeaderOptions, type V1ConfigMap } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { type FinalizerEvent, finalizer, type PatchFinalizers } from "../../../src/meta/index.js";
import { configMaps } from "./helpers.js";

/** The finalizer-aware reconcile helper against a real API server: the whole flow, and its guarded patches. */

const NAME = "workbook.example.com/cleanup";
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false, namespace: false } },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("finalizer() on the embedded cluster", () => {
  it("adds the finalizer, applies, holds deletion for cleanup, then lets the object go", async () => {
    const cms = configMaps(cluster, "default");
    const patch: PatchFinalizers<V1ConfigMap> = (obj, body) =>
      cms.core.patchNamespacedConfigMap(
        { name: obj.metadata!.name!, namespace: "default", body },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
    const seen: string[] = [];
    const reconcile = async (event: FinalizerEvent<V1ConfigMap>) => {
      seen.push(event.type);
      return event.type;
    };
    const step = async () => finalizer(patch, NAME, (await cms.get("thing"))!, reconcile);

    await cms.create("thing");
    expect(await step()).toBeUndefined(); // 1st pass: only adds the finalizer
    expect((await cms.get("thing"))?.metadata?.finalizers).toEqual([NAME]);
    expect(await step()).toBe("apply");
    await cms.delete("thing");
    expect((await cms.get("thing"))?.metadata?.deletionTimestamp).toBeDefined(); // held by our finalizer
    expect(await step()).toBe("cleanup");
    expect(await cms.exists("thing")).toBe(false); // removing the last finalizer deleted it
    expect(seen).toEqual(["apply", "cleanup"]);
  });

  it("a decision made on a stale read fails with 409 instead of overwriting someone else's finalizers", async () => {
    const cms = configMaps(cluster, "default");
    const patch: PatchFinalizers<V1ConfigMap> = (obj, body) =>
      cms.core.patchNamespacedConfigMap(
        { name: obj.metadata!.name!, namespace: "default", body },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
    await cms.create("contested");
    const stale = (await cms.get("contested"))!;
    const fresh = (await cms.get("contested"))!;
    await cms.core.replaceNamespacedConfigMap({
      name: "contested",
      namespace: "default",
      body: { ...fresh, metadata: { ...fresh.metadata, finalizers: ["other.example.com/f"] } },
    });
    const err = await finalizer(patch, NAME, stale, async () => "never").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<unknown>).code).toBe(409);
    expect((await cms.get("contested"))?.metadata?.finalizers).toEqual(["other.example.com/f"]);
  });
});
