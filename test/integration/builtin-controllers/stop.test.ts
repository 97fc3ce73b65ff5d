import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GarbageCollector,
  NamespaceController,
} from "../../../src/control-plane/builtin-controllers/index.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { eventually } from "./helpers.js";

/** Both controllers leave nothing running: their watches close on stop, and stop is idempotent. */

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

const openWatches = () => cluster.instruments!.metrics.snapshot().openWatches;

describe("control-plane controllers stop cleanly", () => {
  it("the garbage collector watches every deletable resource, and closes every watch on stop", async () => {
    expect(openWatches()).toBe(0);
    const gc = new GarbageCollector({ kubeConfig: cluster.kubeConfig });
    await gc.start();
    const monitored = gc.builder.monitoredResources();
    expect(monitored).toContain("configmaps/v1");
    expect(monitored).toContain("leases.coordination.k8s.io/v1");
    expect(monitored).not.toContain("events/v1"); // ignored, as kube-controller-manager does
    expect(await eventually(() => openWatches() === monitored.length)).toBe(true);
    await gc.stop();
    await gc.stop();
    expect(await eventually(() => openWatches() === 0)).toBe(true);
  });

  it("the namespace controller closes its watch on stop", async () => {
    const nc = new NamespaceController({ kubeConfig: cluster.kubeConfig });
    nc.start();
    expect(await eventually(() => openWatches() === 1)).toBe(true);
    await nc.stop();
    await nc.stop();
    expect(await eventually(() => openWatches() === 0)).toBe(true);
  });

  it("run(signal) starts both and settles after the signal aborts, with nothing left open", async () => {
    const controller = new AbortController();
    const gc = new GarbageCollector({ kubeConfig: cluster.kubeConfig });
    const nc = new NamespaceController({ kubeConfig: cluster.kubeConfig });
    const runs = Promise.all([gc.run(controller.signal), nc.run(controller.signal)]);
    expect(await eventually(() => openWatches() > 1)).toBe(true);
    controller.abort();
    await runs;
    expect(await eventually(() => openWatches() === 0)).toBe(true);
  });
});
