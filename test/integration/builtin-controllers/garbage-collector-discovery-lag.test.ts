import { CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { GarbageCollector } from "../../../src/control-plane/builtin-controllers/garbage-collector/garbage-collector.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, createExampleCrd, eventually } from "./helpers.js";

/**
 * A dependent whose owner is of a kind the collector's discovery has not caught up with yet is kept. kube's
 * collector treats the unknown kind as a transient REST-mapping error and retries (attemptToDeleteWorker); it
 * never concludes that an owner of an unknown kind is absent. The collector here runs on a FakeClock, so its
 * re-discovery after the CRD appears (200 ms) happens only when the test advances the clock: the child is
 * seen, and judged, while the owner's kind is still unknown.
 */

let cluster: Cluster;
let gc: GarbageCollector;
const clock = new FakeClock();
const errors: unknown[] = [];

/** Lets real time pass (the collector's list, watch and requests are real) and then advances the fake clock. */
async function pass(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  await clock.advance(ms);
  await new Promise((r) => setTimeout(r, 300));
}

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false, namespace: false } },
  });
  gc = new GarbageCollector({ kubeConfig: cluster.kubeConfig, clock, onError: (e) => errors.push(e) });
  await gc.start();
  for (let i = 0; i < 5; i++) await pass(100); // the workers start once the graph has synced (polled on the clock)
}, 120_000);

afterAll(async () => {
  await gc?.stop();
  await cluster?.stop();
});

describe("GarbageCollector while discovery lags behind a new CRD", () => {
  it("keeps a child whose owner's kind is not discovered yet, and collects it once the owner goes", async () => {
    const custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const gadgets = await createExampleCrd(cluster, "gadgets", "Gadget");
    let owner: { metadata: { uid: string } } | undefined;
    expect(
      await eventually(async () => {
        try {
          owner = await custom.createNamespacedCustomObject({
            ...gadgets,
            body: { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g" } },
          });
          return true;
        } catch {
          return false; // served a moment after it is created
        }
      }),
    ).toBe(true);
    const cms = configMaps(cluster, "default");
    const ref = { apiVersion: "example.com/v1", kind: "Gadget", name: "g", uid: owner!.metadata.uid };
    await cms.create("gadget-child", [{ ...ref, controller: true, blockOwnerDeletion: true }]);

    await pass(0); // the child is in the graph; the owner is a virtual node of a kind discovery does not know
    await pass(300); // re-discovery runs: Gadgets are watched from now on
    for (let i = 0; i < 4; i++) await pass(1_000); // every retry of the owner and the child has run
    expect(await cms.exists("gadget-child"), "the child of a live owner was collected").toBe(true);

    // The collector still works for this kind: the owner goes, the child follows.
    await custom.deleteNamespacedCustomObject({ ...gadgets, name: "g", propagationPolicy: "Background" });
    expect(await eventually(async () => !(await cms.exists("gadget-child")))).toBe(true);
  }, 60_000);
});
