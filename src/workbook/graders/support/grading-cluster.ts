/**
 * The cluster a grader checks against: one per grading worker, started on the first check that asks for it
 * (a grader whose checks never reach it starts nothing), optionally with the workbook's CRDs installed, and a
 * fresh namespace per check, all removed again by the grader's teardown. It plays the part envtest's
 * `BeforeSuite`/`AfterSuite` play in a controller-runtime project: one control plane per suite, not per test.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import {
  type Cluster,
  type EmbeddedCluster,
  type StartClusterOptions,
  startCluster,
} from "../../../control-plane/cluster/index.js";
import { installWorkbookApi } from "../../workbook-api/index.js";

/** What a grader holds: the lazily started cluster, namespaces made on it, and the teardown of both. */
export interface GradingCluster<C extends Cluster> {
  /** The cluster, started (and the workbook's CRDs installed, when asked) by the first call. */
  get(): Promise<C>;
  /** Creates a namespace named `<prefix>-<label>-<pid>-<n>` (unique in this worker) and returns its name. */
  newNamespace(label: string): Promise<string>;
  /** Deletes the namespaces made with {@link newNamespace} (best effort) and stops the cluster, if it started. */
  stop(): Promise<void>;
}

/** How a grader wants its cluster: {@link startCluster}'s options, plus what to prepare on it. */
export interface GradingClusterOptions {
  /** Start of every namespace name, e.g. `lab05`. */
  prefix: string;
  /** Install the workbook's CRDs (ConfigSet, Bucket, ...) before the first check uses the cluster. */
  workbookApi?: boolean;
}

/**
 * A {@link GradingCluster}; `start` goes to {@link startCluster} (so `WORKBOOK_CLUSTER` picks the backend, unless
 * the grader asks for `backend: "embedded"`, whose fault injection and request counters it then may use).
 */
export function gradingCluster(
  options: GradingClusterOptions,
  start: StartClusterOptions & { backend: "embedded" },
): GradingCluster<EmbeddedCluster>;
/** A {@link GradingCluster} on whatever backend `WORKBOOK_CLUSTER` names. */
export function gradingCluster(
  options: GradingClusterOptions,
  start?: StartClusterOptions,
): GradingCluster<Cluster>;
export function gradingCluster(
  options: GradingClusterOptions,
  start: StartClusterOptions = {},
): GradingCluster<Cluster> {
  let started: Promise<Cluster> | undefined;
  const namespaces: string[] = [];
  let made = 0;
  const get = (): Promise<Cluster> => {
    started ??= (async () => {
      // The control plane's own reports (its informers restarting a watch the grader dropped) belong in
      // kube-controller-manager's log, not in the learner's grade: only the learner's controller speaks there.
      const c = await startCluster({ ...start, embedded: { onError: () => {}, ...start.embedded } });
      if (options.workbookApi) await installWorkbookApi(c.kubeConfig);
      return c;
    })();
    return started;
  };
  return {
    get,
    async newNamespace(label) {
      const name = `${options.prefix}-${label}-${process.pid}-${made++}`;
      const c = await get();
      await c.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
      namespaces.push(name);
      return name;
    },
    async stop() {
      const c = await started?.catch(() => undefined);
      if (!c) return;
      const core = c.kubeConfig.makeApiClient(CoreV1Api);
      for (const name of namespaces) await core.deleteNamespace({ name }).catch(() => {});
      await c.stop();
    },
  };
}
