import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GarbageCollector } from "../../../src/control-plane/builtin-controllers/index.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, eventually, refTo } from "./helpers.js";

/**
 * The embedded cluster with its built-in garbage collector switched off (what lab 08 and notebook 08 rely on):
 * nothing collects until a collector is started by hand, and that collector's queues can be read.
 */

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false } },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("embedded cluster with controllers.garbageCollector: false", () => {
  it("leaves dependents of a deleted owner alone, until a collector of our own runs and reports its work", async () => {
    const cms = configMaps(cluster, "default");
    const owner = await cms.create("switch-owner");
    await cms.create("switch-child", [refTo(owner, true)]);
    await cms.delete("switch-owner");
    await new Promise((r) => setTimeout(r, 700));
    expect(await cms.exists("switch-child")).toBe(true); // no built-in collector

    const gc = new GarbageCollector({ kubeConfig: cluster.kubeConfig });
    try {
      await gc.start();
      expect(await eventually(async () => !(await cms.exists("switch-child")))).toBe(true);
      const { attemptToDelete, attemptToOrphan } = gc.workers;
      expect(attemptToDelete.stats.success).toBeGreaterThanOrEqual(1);
      expect(attemptToDelete.queue.len()).toBe(0);
      expect(attemptToOrphan.stats.reconciles).toBe(0);
    } finally {
      await gc.stop();
    }
  });
});
