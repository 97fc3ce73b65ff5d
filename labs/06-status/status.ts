/**
 * LAB 06 (skeleton). The status half of the ConfigSet reconcile: report what was observed, for the generation
 * that was acted on, with truthful conditions, and write it only when it changed. Notebook 06 shows each piece.
 */
import type { ConfigSet, CustomResourceClient } from "kube-controller-workbook/workbook";

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
  // TODO 1: observedGeneration is the generation of `cs`, the spec this reconcile acted on.
  // TODO 2: replicas and readyReplicas come from `observed`, never from the old status.
  // TODO 3: conditions (setStatusCondition keeps lastTransitionTime right), each with a reason and a message:
  //         Ready: True only when there is no error and readyReplicas === spec.replicas;
  //         Progressing: True while replicas or readyReplicas differ from spec.replicas;
  //         Degraded: True when `observed.error` is set, with the error as message.
  // TODO 4: compare with cs.status; write only when different, with ctx.configSets.updateStatus (it carries
  //         cs's resourceVersion). A 409 Conflict must not be swallowed: let it throw, the key is retried.
  void ctx;
  void cs;
  void observed;
}
