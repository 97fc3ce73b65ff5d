import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster } from "../../../src/cluster/index.js";
import { kindUnavailableReason } from "../../../src/cluster/kind/availability.js";
import type { KindCluster } from "../../../src/cluster/kind.js";

// Runs for real only where a container engine answers and a node image can be had (present, pulled, or built
// here by `workbook kind build-image`); skips with the reason everywhere else.
const unavailable = await kindUnavailableReason();
if (unavailable) console.warn(`kind integration test skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)("kind backend (kindest/node via Testcontainers)", () => {
  let cluster: KindCluster;

  beforeAll(async () => {
    cluster = (await startCluster({ backend: "kind", log: (l) => console.log(l) })) as KindCluster;
  }, 600_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 120_000);

  it("is a Ready single-node cluster with the default ServiceAccount, reached on the mapped port", async () => {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const nodes = await core.listNode();
    expect(nodes.items).toHaveLength(1);
    const ready = nodes.items[0]?.status?.conditions?.find((c) => c.type === "Ready");
    expect(ready?.status).toBe("True");
    expect(nodes.items[0]?.spec?.taints ?? []).not.toContainEqual(
      expect.objectContaining({ key: "node-role.kubernetes.io/control-plane" }),
    );
    const sa = await core.readNamespacedServiceAccount({ name: "default", namespace: "default" });
    expect(sa.metadata?.name).toBe("default");
    expect(cluster.kubeConfig.getCurrentCluster()?.server).toMatch(/^https:\/\/[^:]+:\d+$/);
  });

  it("serves a ConfigMap round trip", async () => {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: "kind-it" }, data: { a: "1" } },
    });
    const read = await core.readNamespacedConfigMap({ name: "kind-it", namespace: "default" });
    expect(read.data).toEqual({ a: "1" });
  });
});
