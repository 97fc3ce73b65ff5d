/**
 * How long each backend may take to start, apart from any budget of the work done on it afterwards. A test
 * framework does the same when it gives `BeforeSuite` (envtest's `testEnv.Start()`, a CI job's
 * `kind create cluster --wait`) its own timeout instead of charging the cluster's start to the first test.
 */
import type { ClusterBackend } from "./cluster.js";

/**
 * Milliseconds a backend's start may take on a busy 2-core machine before a caller gives up. Measured there:
 * embedded well under a second, envtest (etcd, kube-apiserver, kube-controller-manager) 5 to 15 s, a kind node
 * from a local image 35 s idle and about a minute under load (boot, `kubeadm init`, node Ready). The kubeconfig
 * backend starts nothing: its budget is one round trip to a cluster that already runs.
 */
export const START_BUDGET_MS: Readonly<Record<ClusterBackend, number>> = {
  embedded: 15_000,
  envtest: 90_000,
  kind: 240_000,
  kubeconfig: 15_000,
};

/** Error of {@link withinStartBudget}: the backend did not start in time. */
export class StartBudgetExceededError extends Error {
  constructor(
    readonly backend: ClusterBackend,
    readonly budgetMs: number,
  ) {
    super(
      `the ${backend} cluster did not start within ${budgetMs / 1000} s ` +
        `(its start budget; a busy machine or a missing image are the usual causes)`,
    );
    this.name = "StartBudgetExceededError";
  }
}

/**
 * Settles with `start` (a backend starting), or rejects with {@link StartBudgetExceededError} when it takes
 * longer than `budgetMs`. A start that completes after the budget ran out is stopped through `stop`, so nothing
 * is left running that nobody holds.
 */
export function withinStartBudget<T>(
  start: Promise<T>,
  backend: ClusterBackend,
  stop: (started: T) => Promise<void>,
  budgetMs: number = START_BUDGET_MS[backend],
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new StartBudgetExceededError(backend, budgetMs));
    }, budgetMs);
    start.then(
      (started) => {
        clearTimeout(timer);
        if (late) void stop(started).catch(() => undefined);
        else resolve(started);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) reject(err);
      },
    );
  });
}
