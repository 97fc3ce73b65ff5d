import type { KubeConfig } from "@kubernetes/client-node";
import type { Instruments } from "../apiserver/instruments/instruments.js";

/**
 * Where a {@link Cluster} comes from. `embedded` (the default) runs the workbook's own API server in this
 * process; `kind` starts a kindest/node container; `envtest` runs real kube-apiserver and etcd binaries from
 * `KUBEBUILDER_ASSETS`; `kubeconfig` uses the current context of KUBECONFIG.
 */
export type ClusterBackend = "embedded" | "kind" | "envtest" | "kubeconfig";

/**
 * A running Kubernetes API to talk to. Library code only ever uses `kubeConfig`; it never knows which backend
 * answers. `instruments` (request metrics and fault injection) exist only on the embedded backend: they are
 * typed without a type argument, `cluster.instruments?.metrics.snapshot()`, and `undefined` elsewhere. Each
 * backend's own cluster type narrows `I` (`EmbeddedCluster`: always there; kind, envtest, kubeconfig: never).
 */
export interface Cluster<I = Instruments> {
  readonly backend: ClusterBackend;
  /** A client-node KubeConfig for this cluster (CA data and credentials included). */
  readonly kubeConfig: KubeConfig;
  /** Path of a kubeconfig file for kubectl and other tools. */
  readonly kubeconfigPath: string;
  /** Teaching instruments; only the embedded backend has them. */
  readonly instruments: I | undefined;
  /** Stops whatever the backend started and removes files it wrote. Idempotent. */
  stop(): Promise<void>;
}

/**
 * What every backend's start function reads of `startCluster`'s options besides its own section (declared here,
 * not in cluster.ts, so the backends do not import the module that names their options).
 */
export interface BackendStartOptions {
  /** Progress lines (kind prints its phases here). Default: silent. */
  log?: (line: string) => void;
}
