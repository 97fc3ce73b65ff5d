import { existsSync } from "node:fs";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEnvtestAssets } from "../../../src/control-plane/cluster/envtest/assets.js";
import type { EnvtestCluster } from "../../../src/control-plane/cluster/envtest.js";
import { startCluster } from "../../../src/control-plane/cluster/index.js";

const assets = findEnvtestAssets();
const skipReason =
  "no envtest binaries (set KUBEBUILDER_ASSETS or run `workbook envtest build`; etcd may come from /usr/bin/etcd)";
if (!assets) console.warn(`envtest integration test skipped: ${skipReason}`);

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

describe.skipIf(!assets)("envtest backend (real kube-apiserver + etcd)", () => {
  let cluster: EnvtestCluster;
  let core: CoreV1Api;

  beforeAll(async () => {
    cluster = (await startCluster({ backend: "envtest" })) as EnvtestCluster;
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it("serves a namespace and a ConfigMap through client-node", async () => {
    expect(cluster.backend).toBe("envtest");
    expect(cluster.processes.every((p) => p.running)).toBe(true);
    await core.createNamespace({ body: { metadata: { name: "envtest-it" } } });
    const created = await core.createNamespacedConfigMap({
      namespace: "envtest-it",
      body: { metadata: { name: "settings" }, data: { color: "blue" } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    const read = await core.readNamespacedConfigMap({ name: "settings", namespace: "envtest-it" });
    expect(read.data).toEqual({ color: "blue" });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const stale = { ...read, data: { color: "red" }, metadata: { ...read.metadata, resourceVersion: "1" } };
    await expect(
      core.replaceNamespacedConfigMap({ name: "settings", namespace: "envtest-it", body: stale }),
    ).rejects.toMatchObject({ code: 409 });
  });

  it.skipIf(!assets?.kubeControllerManager)(
    "finishes namespace deletion (kube-controller-manager's namespace controller runs)",
    async () => {
      await core.createNamespace({ body: { metadata: { name: "envtest-doomed" } } });
      await core.createNamespacedConfigMap({
        namespace: "envtest-doomed",
        body: { metadata: { name: "c" } },
      });
      await core.deleteNamespace({ name: "envtest-doomed" });
      const gone = await eventually(async () => {
        const list = await core.listNamespace();
        return !list.items.some((n) => n.metadata?.name === "envtest-doomed");
      }, 60_000);
      expect(gone).toBe(true);
    },
    90_000,
  );

  it("stop() leaves no process and no files behind, and is idempotent", async () => {
    const pids = cluster.processes.map((p) => p.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.every(alive)).toBe(true);
    await cluster.stop();
    await cluster.stop();
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(cluster.dir)).toBe(false);
  }, 60_000);
});
