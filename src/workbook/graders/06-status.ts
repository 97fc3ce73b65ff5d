/**
 * Grader of lab 06-status: the learner's controller reports what it observed in the ConfigSet's status
 * (observedGeneration, counts, Ready and Degraded conditions), on a cluster with the workbook's CRDs, a fresh
 * namespace per check, on either track (the TypeScript factory or the Go program, support/tracks.ts). Outcomes
 * only: what a reader of the status sees, as `kubectl wait --for=condition=Ready` would.
 */
import { SharedInformerFactory } from "../../cache/index.js";
import type { Cluster } from "../../control-plane/cluster/index.js";
import { findStatusCondition } from "../../controller/index.js";
import { getControllerOf } from "../../meta/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { CONFIGSET_LABEL, type ConfigSet, WorkbookResources } from "../workbook-api/index.js";
import {
  ConfigSetScenario,
  gradingCluster,
  type LabController,
  type LabControllerOptions,
  openTrack,
  openTrackScenario,
  prepareTrack,
  sleep,
  withScenario,
} from "./support/index.js";

/**
 * What `labs/06-status/controller.ts` must export (its README): a factory of the status-writing controller. The
 * Go track (`labs/06-status/go/`) is a controller-runtime program instead, graded by the same checks.
 */
export interface ControllerModule {
  createStatusController(options: LabControllerOptions): LabController;
}

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab06", workbookApi: true });

/** A scenario: a fresh namespace, the controller under test, and a count of its reconciles. */
class Scenario extends ConfigSetScenario {
  static async open(dir: string, label: string): Promise<Scenario> {
    const track = openTrack<ControllerModule>(dir, (mod) => mod.createStatusController);
    return new Scenario(await openTrackScenario(cluster, track, label));
  }

  async createSet(name: string, replicas: number): Promise<void> {
    await this.sets.create({
      metadata: { name, namespace: this.namespace },
      spec: { replicas, data: { color: "blue" } },
    });
  }

  /** Owned children that exist now. */
  async childCount(name: string, uid: string | undefined): Promise<number> {
    const list = await this.core.listNamespacedConfigMap({
      namespace: this.namespace,
      labelSelector: `${CONFIGSET_LABEL}=${name}`,
    });
    return list.items.filter((cm) => getControllerOf(cm)?.uid === uid).length;
  }

  /** Why the status of `name` does not (yet) report a converged, current ConfigSet. */
  async notReported(name: string): Promise<string | undefined> {
    const cs = await this.sets.get(this.namespace, name);
    return statusProblem(cs, await this.childCount(name, cs.metadata.uid));
  }

  /**
   * Polls until the status of `name` reports a converged, current ConfigSet. Fails after `timeout` ms, or as
   * soon as the outcome is decided: not reported and the controller quiet (no reconcile, no status write) for
   * QUIET_MS (3 s), so nothing is left that would change the status.
   */
  async waitReported(name: string, timeout = 8000): Promise<void> {
    await this.waitFor({
      missing: () => this.notReported(name),
      writes: () => statusWrites(this.cluster),
      state: "reported",
      writeKind: "status write",
      timeout,
    });
  }
}

/** What is wrong with the status of a converged ConfigSet with `children` owned children, if anything. */
function statusProblem(cs: ConfigSet, children: number): string | undefined {
  const s = cs.status;
  const want = cs.spec.replicas;
  if (children !== want)
    return `${children} children exist, spec.replicas is ${want} (the given children half)`;
  if (s?.observedGeneration !== cs.metadata.generation)
    return `status.observedGeneration is ${s?.observedGeneration}, metadata.generation is ${cs.metadata.generation}`;
  if (s?.replicas !== want || s?.readyReplicas !== want)
    return `status.replicas=${s?.replicas}, status.readyReplicas=${s?.readyReplicas}, want ${want}`;
  const expect: Record<string, string> = { Ready: "True", Progressing: "False", Degraded: "False" };
  for (const [type, status] of Object.entries(expect)) {
    const c = findStatusCondition(s.conditions, type);
    if (c?.status !== status) return `condition ${type} is ${c?.status ?? "missing"}, want ${status}`;
    if (!c.reason) return `condition ${type} has no reason`;
  }
  if (!findStatusCondition(s.conditions, "Ready")?.message) return "condition Ready has no message";
  return undefined;
}

/** Writes to ConfigSets' /status the embedded server answered so far. */
function statusWrites(c: Cluster): number | undefined {
  const m = c.instruments?.metrics.snapshot();
  if (!m) return undefined;
  return m.requests
    .filter((r) => r.resource === "configsets/status" && (r.verb === "update" || r.verb === "patch"))
    .reduce((n, r) => n + r.count, 0);
}

/** Successful (2xx) writes to ConfigSets' /status so far. */
function acceptedStatusWrites(c: Cluster): number | undefined {
  const m = c.instruments?.metrics.snapshot();
  if (!m) return undefined;
  return m.requests
    .filter((r) => r.resource === "configsets/status" && (r.verb === "update" || r.verb === "patch"))
    .filter((r) => r.code < 300)
    .reduce((n, r) => n + r.count, 0);
}

/** The requirement every other one builds on. */
const REPORTS =
  "a converged ConfigSet reports it: observedGeneration = metadata.generation, replicas = readyReplicas = spec.replicas, Ready=True, Progressing=False, Degraded=False, each with a reason";

/** Grader of labs/06-status: the ConfigSet's status half, graded on what a reader of the status sees. */
export default defineLab({
  title: "a status that tells the truth",
  async checks(dir) {
    await prepareTrack(dir);
    return [
      {
        requirement: REPORTS,
        hint: "compute the whole status from the observation, with observedGeneration = the metadata.generation of the object you acted on, and write it with updateStatus (the /status subresource)",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "converged"), async (s) => {
            await s.startController();
            await s.createSet("web", 3);
            await s.waitReported("web");
            await s.sets.patch(s.namespace, "web", { spec: { replicas: 1 } });
            await s.waitReported("web");
          }),
      },
      {
        requirement:
          "status reports what exists, not what was asked for: when one child cannot be made (its name is taken by someone else's ConfigMap), status.replicas counts the children that exist and Ready stays False",
        hint: "replicas and readyReplicas come from the observation (countChildren), never from spec.replicas",
        needs: [REPORTS],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "observe"), async (s) => {
            await s.startController();
            await s.core.createNamespacedConfigMap({
              namespace: s.namespace,
              body: { metadata: { name: "web-2" }, data: { owner: "someone else" } },
            });
            await s.createSet("web", 3);
            let seen = "";
            const look = async () => {
              const cs = await s.sets.get(s.namespace, "web");
              const have = await s.childCount("web", cs.metadata.uid);
              const ready = findStatusCondition(cs.status?.conditions, "Ready");
              seen = `${have} children exist; status: observedGeneration=${cs.status?.observedGeneration}, replicas=${cs.status?.replicas}, Ready=${ready?.status}`;
              return { cs, have, ready };
            };
            try {
              await eventually(
                async () => {
                  const { cs, have, ready } = await look();
                  return (
                    cs.status?.observedGeneration === cs.metadata.generation &&
                    cs.status?.replicas === have &&
                    ready?.status === "False"
                  );
                },
                { timeout: 6000, interval: 50 },
              );
              await consistently(async () => (await look()).ready?.status !== "True", {
                duration: 1000,
                interval: 50,
              });
            } catch {
              throw new Error(`with web-2 taken: ${seen}`);
            }
          }),
      },
      {
        requirement:
          "failures are reported: while child creates fail, the current generation shows Ready=False and Degraded=True with the error as message; once they succeed, Ready=True and Degraded=False",
        hint: "pass observed.error into the conditions (Degraded's message) and let the reconcile fail so it is retried",
        needs: [REPORTS],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "failure"), async (s) => {
            await s.startController();
            const faults = s.cluster.instruments?.faults;
            faults?.failNext("create", 1000, 500, "configmaps");
            try {
              await s.createSet("web", 2);
              if (faults) {
                let seen = "";
                try {
                  await eventually(
                    async () => {
                      const cs = await s.sets.get(s.namespace, "web");
                      const ready = findStatusCondition(cs.status?.conditions, "Ready");
                      const degraded = findStatusCondition(cs.status?.conditions, "Degraded");
                      seen = `observedGeneration=${cs.status?.observedGeneration}, Ready=${ready?.status}, Degraded=${degraded?.status} "${degraded?.message ?? ""}"`;
                      return (
                        cs.status?.observedGeneration === cs.metadata.generation &&
                        ready?.status === "False" &&
                        degraded?.status === "True" &&
                        /500|Internal/i.test(degraded.message ?? "")
                      );
                    },
                    { timeout: 6000, interval: 50 },
                  );
                } catch {
                  throw new Error(`while every create failed with 500, after 6 s: ${seen}`);
                }
              }
            } finally {
              faults?.clear();
            }
            await s.waitReported("web");
          }),
      },
      {
        requirement:
          "status writes survive 409 Conflicts: with the first 5 status writes refused, the status still converges",
        hint: "never swallow the error of updateStatus: let the reconcile fail so the key is retried, reading the object again",
        needs: [REPORTS],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "conflict"), async (s) => {
            await s.startController();
            await s.createSet("web", 2);
            await s.waitReported("web");
            s.cluster.instruments?.faults.failNext("*", 5, 409, "configsets/status");
            await s.sets.patch(s.namespace, "web", { spec: { replicas: 3 } });
            await s.waitReported("web");
            // Whatever 409s the controller did not use up must not reach the next requirement.
            s.cluster.instruments?.faults.clear();
          }),
      },
      {
        requirement:
          "status is written only when it changes: while a scale-up converges, every accepted status write changes the status (a write of an identical status is an API request for nothing)",
        hint: "compare the status you computed with the one on the object and skip updateStatus when they are equal; the API server accepts an identical status without a new resourceVersion or event, so nothing else shows the waste",
        needs: [REPORTS],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "writes"), async (s) => {
            // Watch the ConfigSet as a client would: every status write that changed something is one update.
            const factory = new SharedInformerFactory(s.cluster.kubeConfig, {
              namespace: s.namespace,
              onError: () => {},
            });
            let changes = 0;
            factory.informerFor<ConfigSet>(WorkbookResources.configSets).addEventHandler({
              onUpdate: (old, obj) => {
                if (JSON.stringify(old.status ?? {}) !== JSON.stringify(obj.status ?? {})) changes++;
              },
            });
            factory.start();
            try {
              await factory.waitForCacheSync();
              await s.startController();
              const before = acceptedStatusWrites(s.cluster);
              s.cluster.instruments?.faults.latency(50, "create");
              await s.createSet("web", 4);
              await s.waitReported("web");
              await s.sets.patch(s.namespace, "web", { spec: { replicas: 6 } });
              await s.waitReported("web");
              s.cluster.instruments?.faults.clear();
              await sleep(500);
              const after = acceptedStatusWrites(s.cluster);
              if (before === undefined || after === undefined) return; // no request metrics on this backend
              const writes = after - before;
              if (writes > changes)
                throw new Error(
                  `${writes} status writes were accepted while converging, but the status changed only ${changes} times: ${writes - changes} wrote a status identical to the stored one`,
                );
            } finally {
              await factory.stop();
            }
          }),
      },
      {
        requirement:
          "no hot loop: once reported, at most 2 reconciles and no status writes in 2 s while nothing changes",
        hint: "skip the write when the new status equals the stored one, and keep what differs on every pass (a time, a counter) out of the status: every write is an event that wakes the controller",
        needs: [REPORTS],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "hotloop"), async (s) => {
            await s.startController();
            await s.createSet("web", 2);
            await s.waitReported("web");
            await sleep(300);
            const before = await s.reconciles();
            const writesBefore = statusWrites(s.cluster);
            if (before === 0) throw new Error(`no reconcile was counted: ${s.track.noReconciles}`);
            await consistently(async () => (await s.reconciles()) - before <= 2, {
              duration: 2000,
              interval: 50,
              description: "at most 2 reconciles",
            }).catch(async () => {
              throw new Error(`${(await s.reconciles()) - before} reconciles in 2 s while nothing changed`);
            });
            const writes = statusWrites(s.cluster);
            if (writes !== undefined && writesBefore !== undefined && writes > writesBefore)
              throw new Error(`${writes - writesBefore} status writes in 2 s while nothing changed`);
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
