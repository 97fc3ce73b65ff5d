/**
 * Control-plane benchmarks on the embedded cluster with the workbook's own controllers: how long the garbage
 * collector takes to cascade a background deletion to N dependents, and the namespace controller to empty and
 * remove a namespace holding N objects (wall time from the DELETE until the last object is gone). No targets:
 * kube-controller-manager's own numbers depend on its QPS limits; these are for comparing changes.
 */
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { startCluster } from "../../control-plane/cluster/index.js";
import type { BenchContext, Benchmark, BenchResult } from "./types.js";

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const dependents = ctx.tiny ? 20 : 300;
  const cluster = await startCluster({ backend: "embedded" });
  const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  try {
    await core.createNamespace({ body: { metadata: { name: "bench-gc" } } });
    const owner = await core.createNamespacedConfigMap({
      namespace: "bench-gc",
      body: { metadata: { name: "owner" } },
    });
    const ref = { apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata!.uid! };
    for (let i = 0; i < dependents; i++) {
      await core.createNamespacedConfigMap({
        namespace: "bench-gc",
        body: { metadata: { name: `kid-${i}`, ownerReferences: [ref] } },
      });
    }
    const count = async () => (await core.listNamespacedConfigMap({ namespace: "bench-gc" })).items.length;
    const gcStart = performance.now();
    await core.deleteNamespacedConfigMap({
      name: "owner",
      namespace: "bench-gc",
      propagationPolicy: "Background",
    });
    await until(async () => (await count()) === 0, 120_000);
    const gcMs = performance.now() - gcStart;

    for (let i = 0; i < dependents; i++) {
      await core.createNamespacedConfigMap({
        namespace: "bench-gc",
        body: { metadata: { name: `cm-${i}` } },
      });
    }
    const nsStart = performance.now();
    await core.deleteNamespace({ name: "bench-gc" });
    await until(async () => {
      try {
        await core.readNamespace({ name: "bench-gc" });
        return false;
      } catch (err) {
        if (err instanceof ApiException && err.code === 404) return true;
        throw err;
      }
    }, 120_000);
    const nsMs = performance.now() - nsStart;
    const figures = [
      { name: `GC background cascade to ${dependents} dependents`, value: gcMs, unit: "ms" },
      { name: `namespace deletion with ${dependents} ConfigMaps`, value: nsMs, unit: "ms" },
    ];
    return { figures, charts: [], missing: [] };
  } finally {
    await cluster.stop();
  }
}

/** The control-plane suite (garbage collector and namespace controller). */
export const benchmark: Benchmark = {
  name: "control-plane",
  title: "the embedded control plane's garbage collector and namespace controller at work",
  run,
};
