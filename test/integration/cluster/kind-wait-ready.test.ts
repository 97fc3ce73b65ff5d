import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEnvtestAssets } from "../../../src/control-plane/cluster/envtest/assets.js";
import type { EnvtestCluster } from "../../../src/control-plane/cluster/envtest.js";
import { startCluster } from "../../../src/control-plane/cluster/index.js";
import { waitForKindReady } from "../../../src/control-plane/cluster/kind/wait-ready.js";

// The kind backend's last start-up step, checked against a real kube-apiserver (envtest has no kubelet, so the
// test plays the kubelet and the ServiceAccount controller by writing the objects they would).
const assets = findEnvtestAssets();
if (!assets)
  console.warn(
    "kind readiness test skipped: no envtest binaries (KUBEBUILDER_ASSETS or `workbook envtest build`)",
  );

describe.skipIf(!assets)("waitForKindReady against a real kube-apiserver", () => {
  let cluster: EnvtestCluster;
  let core: CoreV1Api;

  beforeAll(async () => {
    cluster = (await startCluster({
      backend: "envtest",
      envtest: { controllerManager: false },
    })) as EnvtestCluster;
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it("times out naming the missing condition while no node is Ready", async () => {
    await expect(waitForKindReady(cluster.kubeConfig, { timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(
      /node Ready did not happen within 300 ms/,
    );
  });

  it("resolves once a node reports Ready=True and the default ServiceAccount exists", async () => {
    await core.createNode({ body: { metadata: { name: "kind-control-plane" } } });
    const node = await core.readNode({ name: "kind-control-plane" });
    node.status = {
      conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", lastHeartbeatTime: new Date() }],
    };
    await core.replaceNodeStatus({ name: "kind-control-plane", body: node });
    await expect(waitForKindReady(cluster.kubeConfig, { timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(
      /default ServiceAccount created did not happen/,
    );
    await core.createNamespacedServiceAccount({
      namespace: "default",
      body: { metadata: { name: "default" } },
    });
    const lines: string[] = [];
    await waitForKindReady(cluster.kubeConfig, {
      timeoutMs: 5_000,
      intervalMs: 50,
      log: (l) => lines.push(l),
    });
    expect(lines).toEqual([
      "kind: waiting for the node to be Ready",
      "kind: waiting for the default ServiceAccount",
    ]);
  });
});
