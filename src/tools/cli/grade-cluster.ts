/**
 * One cluster for a whole `workbook grade` run on kind: started once, before the first lab, within kind's start
 * budget (src/control-plane/cluster/start-budget.ts; a node needs about 35 s, more than a check's whole 15-20 s), then handed to
 * every lab's worker process as
 * the current context of a kubeconfig (`WORKBOOK_CLUSTER=kubeconfig`, `KUBECONFIG=<its file>`), so a grader's
 * `startCluster()` connects instead of starting another, and a worker restarted after a hung check finds it
 * still there. Each grader still works in namespaces of its own. This is what a Go project's CI does with
 * `kind create cluster` before `go test ./...`.
 *
 * The other backends are left to the workers: embedded starts in well under a second, and graders use its
 * instruments (request counters, fault injection), which exist only in the process that runs the server; envtest
 * starts in seconds and a grader may ask for its own options (lab 08 turns kube-controller-manager off, whose
 * collector would do the lab's work); the kubeconfig backend already is a shared cluster.
 */
import {
  type Cluster,
  type ClusterBackend,
  resolveBackend,
  type StartClusterOptions,
  startCluster,
} from "../../control-plane/cluster/index.js";
import { START_BUDGET_MS, withinStartBudget } from "../../control-plane/cluster/start-budget.js";

/** The backends whose cluster a grading run starts once and shares (see the module comment). */
export const SHARED_GRADING_BACKENDS: readonly ClusterBackend[] = ["kind"];

/** A cluster shared by a grading run, and the environment its workers get. */
export interface GradingRunCluster {
  readonly backend: ClusterBackend;
  /** Environment for the worker processes: the caller's, pointed at this cluster. */
  readonly env: NodeJS.ProcessEnv;
  /** Milliseconds the start took. */
  readonly startedInMs: number;
  /** Stops the cluster. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startGradingRunCluster}. */
export interface GradingRunClusterOptions {
  /** Environment to read `WORKBOOK_CLUSTER` from and to extend for the workers (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Progress lines (kind prints its phases). */
  log?: (line: string) => void;
  /** Start budget in ms (default: the backend's {@link START_BUDGET_MS}). */
  budgetMs?: number;
  /** How to start a cluster (default {@link startCluster}; tests pass a fake). */
  start?: (options: StartClusterOptions) => Promise<Cluster>;
}

/**
 * Starts the run's shared cluster when `WORKBOOK_CLUSTER` names a backend in {@link SHARED_GRADING_BACKENDS};
 * resolves `undefined` for the others (the workers start their own). Rejects with the backend's own error (no
 * engine, no image), or with a StartBudgetExceededError.
 */
export async function startGradingRunCluster(
  options: GradingRunClusterOptions = {},
): Promise<GradingRunCluster | undefined> {
  const env = options.env ?? process.env;
  const backend = resolveBackend(env.WORKBOOK_CLUSTER || "embedded");
  if (!SHARED_GRADING_BACKENDS.includes(backend)) return undefined;
  const start = options.start ?? startCluster;
  const began = Date.now();
  const cluster = await withinStartBudget(
    start({ backend, log: options.log }),
    backend,
    (late) => late.stop(),
    options.budgetMs ?? START_BUDGET_MS[backend],
  );
  return {
    backend,
    env: { ...env, WORKBOOK_CLUSTER: "kubeconfig", KUBECONFIG: cluster.kubeconfigPath },
    startedInMs: Date.now() - began,
    stop: () => cluster.stop(),
  };
}
