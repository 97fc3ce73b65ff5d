import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppsV1Api, CoreV1Api, DiscoveryV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ENVTEST_VERSION } from "../../../src/control-plane/cluster/envtest/version.js";
import { startCluster } from "../../../src/control-plane/cluster/index.js";
import { kindUnavailableReason } from "../../../src/control-plane/cluster/kind/availability.js";
import { loadImageIntoNode } from "../../../src/control-plane/cluster/kind/load-image.js";
import { docker } from "../../../src/control-plane/cluster/kind/node-image/docker-cli.js";
import { kindCacheRoot } from "../../../src/control-plane/cluster/kind/node-image/go-binaries.js";
import type { KindCluster } from "../../../src/control-plane/cluster/kind.js";

// Runs for real only where a container engine answers and a node image can be had (present, pulled, or built
// here by `workbook kind build-image`); skips with the reason everywhere else.
const unavailable = await kindUnavailableReason();
if (unavailable) console.warn(`kind integration test skipped: ${unavailable}`);

/** The image every node carries (the pod sandbox), run here as a workload: it starts and waits. */
const PAUSE = "registry.k8s.io/pause:3.10.1";

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${timeoutMs} ms (${String(last)})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.skipIf(unavailable !== undefined)("kind backend (a real node via Testcontainers)", () => {
  let cluster: KindCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const namespace = "kind-it";

  beforeAll(async () => {
    cluster = (await startCluster({ backend: "kind", log: (l) => console.log(l) })) as KindCluster;
    console.log(`kind: start to ready ${(cluster.startToReadyMs / 1000).toFixed(1)} s (${cluster.mode})`);
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  }, 600_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 120_000);

  it("is a Ready single-node cluster with the default ServiceAccount, reached on the mapped port", async () => {
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
    const images = (nodes.items[0]?.status?.images ?? []).flatMap((i) => i.names ?? []);
    expect(images).toContain(PAUSE);
  });

  it("serves a ConfigMap round trip", async () => {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "kind-it" }, data: { a: "1" } },
    });
    const read = await core.readNamespacedConfigMap({ name: "kind-it", namespace });
    expect(read.data).toEqual({ a: "1" });
  });

  it("runs a Deployment's two Pods through a ReplicaSet, gives its Service endpoints, and the GC removes them", async () => {
    const labels = { app: "web" };
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: "web" },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              containers: [{ name: "pause", image: PAUSE, imagePullPolicy: "IfNotPresent" }],
              terminationGracePeriodSeconds: 1,
            },
          },
        },
      },
    });
    await core.createNamespacedService({
      namespace,
      body: { metadata: { name: "web" }, spec: { selector: labels, ports: [{ port: 80 }] } },
    });
    const pods = await until("two Running Pods", async () => {
      const list = await core.listNamespacedPod({ namespace, labelSelector: "app=web" });
      const running = list.items.filter((p) => p.status?.phase === "Running");
      return running.length === 2 ? running : undefined;
    });
    const rsList = await apps.listNamespacedReplicaSet({ namespace, labelSelector: "app=web" });
    expect(rsList.items).toHaveLength(1);
    const rs = rsList.items[0];
    expect(rs?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: "Deployment",
      name: "web",
      controller: true,
    });
    for (const pod of pods) {
      expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: "ReplicaSet",
        name: rs?.metadata?.name,
        controller: true,
      });
      expect(pod.spec?.nodeName).toBe("workbook-control-plane");
      expect(pod.status?.podIP).toMatch(/^10\.244\./);
    }
    const discovery = cluster.kubeConfig.makeApiClient(DiscoveryV1Api);
    const addresses = await until("the Service's endpoints", async () => {
      const slices = await discovery.listNamespacedEndpointSlice({
        namespace,
        labelSelector: "kubernetes.io/service-name=web",
      });
      const ips = slices.items.flatMap((s) => s.endpoints.flatMap((e) => e.addresses));
      return ips.length === 2 ? ips.sort() : undefined;
    });
    expect(addresses).toEqual(pods.map((p) => p.status?.podIP).sort());

    await apps.deleteNamespacedDeployment({ name: "web", namespace, propagationPolicy: "Background" });
    await until("the ReplicaSet and Pods collected", async () => {
      const rs = await apps.listNamespacedReplicaSet({ namespace, labelSelector: "app=web" });
      const left = await core.listNamespacedPod({ namespace, labelSelector: "app=web" });
      return rs.items.length === 0 && left.items.length === 0 ? true : undefined;
    });
  }, 240_000);

  it("runs an image built on this machine after loading it into the node (kind load docker-image)", async () => {
    // An image only this engine has: the pause binary built for the node, under a name no registry serves.
    const local = "workbook.local/sleeper:it";
    const dir = mkdtempSync(join(tmpdir(), "kind-load-"));
    try {
      copyFileSync(join(kindCacheRoot(), DEFAULT_ENVTEST_VERSION, "bin", "pause"), join(dir, "sleeper"));
      chmodSync(join(dir, "sleeper"), 0o755);
      spawnSync("tar", ["-C", dir, "-cf", join(dir, "image.tar"), "sleeper"]);
      await docker(["import", "--change", 'ENTRYPOINT ["/sleeper"]', join(dir, "image.tar"), local]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const result = await loadImageIntoNode(local, { node: cluster.containerId });
    console.log(`kind: loaded ${local} in ${(result.ms / 1000).toFixed(1)} s`);
    await core.createNamespacedPod({
      namespace,
      body: {
        metadata: { name: "sleeper" },
        spec: {
          containers: [{ name: "s", image: local, imagePullPolicy: "Never" }],
          terminationGracePeriodSeconds: 1,
        },
      },
    });
    await until("the Pod from the loaded image Running", async () => {
      const pod = await core.readNamespacedPod({ name: "sleeper", namespace });
      return pod.status?.phase === "Running" ? true : undefined;
    });
    await docker(["rmi", local]);
  }, 240_000);
});
