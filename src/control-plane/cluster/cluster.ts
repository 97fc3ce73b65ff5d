import type { Instruments } from "../apiserver/instruments/instruments.js";
import type { BackendStartOptions, Cluster, ClusterBackend } from "./cluster-types.js";
import type { EmbeddedCluster, EmbeddedClusterOptions } from "./embedded.js";
import type { EnvtestOptions } from "./envtest.js";
import type { KindOptions } from "./kind.js";
import type { KubeconfigBackendOptions } from "./kubeconfig-backend.js";

export type { Cluster, ClusterBackend } from "./cluster-types.js";

/** The backends, in the order `WORKBOOK_CLUSTER` accepts them. */
export const CLUSTER_BACKENDS: readonly ClusterBackend[] = ["embedded", "kind", "envtest", "kubeconfig"];

/** A backend's start function; each backend module registers one. */
export type BackendStarter = (options: StartClusterOptions) => Promise<Cluster<Instruments | undefined>>;

/**
 * Options of {@link startCluster}. Backend-specific sections are typed (a misspelt option fails to compile) and
 * ignored by the other backends.
 */
export interface StartClusterOptions extends BackendStartOptions {
  /** Which backend; defaults to `WORKBOOK_CLUSTER`, then `embedded`. */
  backend?: ClusterBackend;
  /** Options for the embedded backend. */
  embedded?: EmbeddedClusterOptions;
  /** Options for the kind backend. */
  kind?: KindOptions;
  /** Options for the envtest backend. */
  envtest?: EnvtestOptions;
  /** Options for the kubeconfig backend. */
  kubeconfig?: KubeconfigBackendOptions;
}

const starters = new Map<ClusterBackend, () => Promise<BackendStarter>>();

/** Registers how to load a backend (lazily, so unused backends' dependencies are never imported). */
export function registerBackend(name: ClusterBackend, load: () => Promise<BackendStarter>): void {
  starters.set(name, load);
}

/** Picks the backend: the option, else `WORKBOOK_CLUSTER`, else `embedded`. Unknown names are an error. */
export function resolveBackend(requested?: string): ClusterBackend {
  const name = requested ?? process.env.WORKBOOK_CLUSTER ?? "embedded";
  if (!(CLUSTER_BACKENDS as readonly string[]).includes(name)) {
    throw new Error(
      `Unknown cluster backend "${name}". Set WORKBOOK_CLUSTER (or the backend option) to one of: ${CLUSTER_BACKENDS.join(", ")}.`,
    );
  }
  return name as ClusterBackend;
}

/**
 * Starts (or connects to) a Kubernetes API and returns a {@link Cluster}. The same notebook, lab or test runs
 * unchanged on every backend. With `backend: "embedded"` spelt out, the result is an {@link EmbeddedCluster}
 * (instruments always there, and the server itself).
 */
export function startCluster(
  options: StartClusterOptions & { backend: "embedded" },
): Promise<EmbeddedCluster>;
export function startCluster(options?: StartClusterOptions): Promise<Cluster>;
export async function startCluster(options: StartClusterOptions = {}): Promise<Cluster> {
  const backend = resolveBackend(options.backend);
  const load = starters.get(backend);
  if (!load) throw new Error(`The "${backend}" cluster backend is not available in this build.`);
  const start = await load();
  // Every starter returns a Cluster whose instruments are Instruments or undefined: the default `Cluster`.
  return (await start({ ...options, backend })) as Cluster;
}
