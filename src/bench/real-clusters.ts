/**
 * Real clusters next to the embedded one: how long a backend takes to start (to a ready API), and the median
 * round trip of one ConfigMap create + get + delete through client-node. envtest runs real kube-apiserver, etcd
 * and kube-controller-manager processes; its figures are skipped (with a note) when no binaries are found. No
 * targets: these are for a learner's sense of scale and for noticing regressions.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { findEnvtestAssets } from "../cluster/envtest/assets.js";
import { type ClusterBackend, startCluster } from "../cluster/index.js";
import type { BenchFigure, Benchmark } from "./types.js";

const STARTS = 3;
const ROUND_TRIPS = 200;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measure(backend: ClusterBackend): Promise<BenchFigure[]> {
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    const cluster = await startCluster({ backend });
    starts.push(performance.now() - t0);
    await cluster.stop();
  }
  const cluster = await startCluster({ backend });
  const trips: number[] = [];
  try {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "bench-rtt" } } });
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const t0 = performance.now();
      await core.createNamespacedConfigMap({ namespace: "bench-rtt", body: { metadata: { name: `c${i}` } } });
      await core.readNamespacedConfigMap({ namespace: "bench-rtt", name: `c${i}` });
      await core.deleteNamespacedConfigMap({ namespace: "bench-rtt", name: `c${i}` });
      trips.push(performance.now() - t0);
    }
  } finally {
    await cluster.stop();
  }
  return [
    { name: `${backend}: start to ready API (median of ${STARTS})`, value: median(starts), unit: "ms" },
    {
      name: `${backend}: ConfigMap create+get+delete round trip (median of ${ROUND_TRIPS})`,
      value: median(trips),
      unit: "ms",
    },
  ];
}

async function run(): Promise<BenchFigure[]> {
  const figures = await measure("embedded");
  if (findEnvtestAssets()) return [...figures, ...(await measure("envtest"))];
  return [
    ...figures,
    {
      name: "envtest: skipped",
      value: 0,
      unit: "",
      notes: "no kube-apiserver/etcd binaries (KUBEBUILDER_ASSETS or `workbook envtest build`)",
    },
  ];
}

/** The real-clusters benchmark: start time and request round trip, embedded beside envtest. */
export const benchmark: Benchmark = { name: "real-clusters", run };
