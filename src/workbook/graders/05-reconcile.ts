/**
 * Grader of lab 05-reconcile: the learner's ConfigSet replica controller runs against a cluster with the workbook's
 * CRDs (any backend), a fresh namespace per check. Outcomes only: the children the server holds, their
 * ownerReferences and data, what happens after a failure (a level-triggered controller retries) and how many
 * reads the controller sends (it reads its cache, as a controller-runtime reconciler reads its client's cache).
 */
import type { V1ConfigMap } from "@kubernetes/client-node";
import type { Cluster } from "../../control-plane/cluster/index.js";
import { getControllerOf } from "../../meta/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { CONFIGSET_LABEL, type ConfigSet } from "../workbook-api/index.js";
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
 * What `labs/05-reconcile/controller.ts` must export (its README): a factory of the replica controller. The Go
 * track (`labs/05-reconcile/go/`) is a controller-runtime program instead, graded by the same checks.
 */
export interface ControllerModule {
  createReplicaController(options: LabControllerOptions): LabController;
}

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab05", workbookApi: true });

/** A scenario: a fresh namespace, instances of the controller under test, and a count of reconciles. */
class Scenario extends ConfigSetScenario {
  /** GET and LIST requests the grader itself sent (they count in the server's metrics too). */
  ownReads = 0;

  static async open(dir: string, label: string): Promise<Scenario> {
    const track = openTrack<ControllerModule>(dir, (mod) => mod.createReplicaController);
    return new Scenario(await openTrackScenario(cluster, track, label));
  }

  async createSet(name: string, replicas: number, data: Record<string, string>): Promise<ConfigSet> {
    return this.sets.create({ metadata: { name, namespace: this.namespace }, spec: { replicas, data } });
  }

  async scale(name: string, spec: Partial<ConfigSet["spec"]>): Promise<void> {
    await this.sets.patch(this.namespace, name, { spec });
  }

  /** ConfigMaps labelled for `name` that are not being deleted. */
  async children(name: string): Promise<V1ConfigMap[]> {
    this.ownReads++;
    const list = await this.core.listNamespacedConfigMap({
      namespace: this.namespace,
      labelSelector: `${CONFIGSET_LABEL}=${name}`,
    });
    return list.items.filter((cm) => !cm.metadata?.deletionTimestamp);
  }

  /** Edits the data of one child by hand, as a user would (re-read and retry on 409). */
  async deface(name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const [child] = await this.children(name);
      try {
        await this.core.replaceNamespacedConfigMap({
          name: child!.metadata!.name!,
          namespace: this.namespace,
          body: { ...child!, data: { color: "defaced" } },
        });
        return;
      } catch (err) {
        if ((err as { code?: number }).code !== 409 || attempt > 10) throw err;
      }
    }
  }

  /** Why `name` has not converged (undefined once it has). */
  async notConverged(name: string): Promise<string | undefined> {
    this.ownReads++;
    const cs = await this.sets.get(this.namespace, name);
    const kids = await this.children(name);
    const orphans = kids.filter((cm) => getControllerOf(cm)?.uid !== cs.metadata.uid);
    if (orphans.length > 0)
      return `${orphans.length} of ${kids.length} children have no controller ownerReference to the ConfigSet`;
    if (kids.length !== cs.spec.replicas)
      return `${kids.length} children, spec.replicas is ${cs.spec.replicas}`;
    const want = JSON.stringify(Object.entries(cs.spec.data ?? {}).sort());
    const stale = kids.filter((cm) => JSON.stringify(Object.entries(cm.data ?? {}).sort()) !== want);
    if (stale.length > 0) return `${stale.length} children do not carry data equal to spec.data`;
    return undefined;
  }

  /**
   * Polls until `name` has converged. Fails with the last reason after `timeout` ms, or as soon as the outcome
   * is decided: not converged and the controller quiet (no reconcile, no write) for QUIET_MS (3 s), i.e.
   * nothing is left that would retry.
   */
  async waitConverged(name: string, timeout = 8000): Promise<void> {
    await this.waitFor({
      missing: () => this.notConverged(name),
      writes: () => writeRequests(this.cluster),
      state: "converged",
      writeKind: "write",
      timeout,
    });
  }

  /** The UIDs of the children of `name`, sorted. */
  async uids(name: string): Promise<string[]> {
    return (await this.children(name)).map((cm) => cm.metadata?.uid ?? "").sort();
  }
}

/** GET and LIST requests for ConfigSets and ConfigMaps the embedded server answered so far. */
function readRequests(c: Cluster): number | undefined {
  const m = c.instruments?.metrics.snapshot();
  if (!m) return undefined;
  return m.requests
    .filter((r) => (r.verb === "get" || r.verb === "list") && /^(configsets|configmaps)$/.test(r.resource))
    .reduce((n, r) => n + r.count, 0);
}

/** Write requests (create, update, patch, delete) for ConfigMaps and ConfigSets so far. */
function writeRequests(c: Cluster): number | undefined {
  const m = c.instruments?.metrics.snapshot();
  if (!m) return undefined;
  return m.requests
    .filter((r) => ["create", "update", "patch", "delete"].includes(r.verb))
    .filter((r) => /^(configsets|configmaps)/.test(r.resource))
    .reduce((n, r) => n + r.count, 0);
}

/** Successful (2xx) requests with `verb` on ConfigMaps so far. */
function childWrites(c: Cluster, verb: "create" | "delete"): number | undefined {
  const m = c.instruments?.metrics.snapshot();
  if (!m) return undefined;
  return m.requests
    .filter((r) => r.verb === verb && r.resource === "configmaps" && r.code < 300)
    .reduce((n, r) => n + r.count, 0);
}

/** The requirement every other one builds on: a controller that cannot converge a new ConfigSet. */
const CONVERGES =
  "a new ConfigSet converges: spec.replicas ConfigMaps labelled workbook.dev/configset=<name>, each with a controller ownerReference to the ConfigSet and data equal to spec.data";

/** Grader of labs/05-reconcile: the ConfigSet replica controller, graded on outcomes against a cluster. */
export default defineLab({
  title: "the ConfigSet replica controller",
  async checks(dir) {
    await prepareTrack(dir);
    return [
      {
        requirement: CONVERGES,
        hint: "label each child workbook.dev/configset=<name> (the children informer sees only that label), list them from the cache by it, and create the missing ones with setControllerReference and spec.data",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "new"), async (s) => {
            await s.startController();
            await s.createSet("web", 3, { color: "blue" });
            await s.waitConverged("web");
          }),
      },
      {
        requirement:
          "missing, extra and drifted children converge: scale up and down, a child deleted or edited by hand is restored",
        hint: "a ConfigMap event must enqueue the key of the ConfigSet its label names, or nobody notices a child deleted by hand",
        needs: [CONVERGES],
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "drift"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            await s.scale("web", { replicas: 5 });
            await s.waitConverged("web");
            await s.scale("web", { replicas: 1, data: { color: "green" } });
            await s.waitConverged("web");
            await s.deface("web");
            await s.waitConverged("web");
            const [again] = await s.children("web");
            await s.core.deleteNamespacedConfigMap({ name: again!.metadata!.name!, namespace: s.namespace });
            await s.waitConverged("web");
          }),
      },
      {
        requirement:
          "labelled ConfigMaps that exist before the controller starts are adopted (same UIDs, ownerReference added, data fixed) and extras deleted, never deleted and recreated",
        hint: "count every labelled child without a controller as yours: set the ownerReference and data with an update instead of deleting it",
        needs: [CONVERGES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "adopt"), async (s) => {
            await s.createSet("web", 2, { color: "blue" });
            const before: string[] = [];
            for (const [i, color] of ["blue", "red", "blue", "blue"].entries()) {
              const made = await s.core.createNamespacedConfigMap({
                namespace: s.namespace,
                body: {
                  metadata: { name: `existing-${i}`, labels: { [CONFIGSET_LABEL]: "web" } },
                  data: { color },
                },
              });
              before.push(made.metadata?.uid ?? "");
            }
            await s.startController();
            await s.waitConverged("web");
            const after = (await s.children("web")).map((cm) => cm.metadata?.uid ?? "");
            const recreated = after.filter((uid) => !before.includes(uid));
            if (recreated.length > 0)
              throw new Error(
                `${recreated.length} of the 2 children are new objects (UIDs changed): adopt the existing ones instead`,
              );
          }),
      },
      {
        requirement:
          "converges although events are lost: watches dropped and history compacted (410 Expired) while the spec changes and a child is deleted, then the next 4 child creates fail (a failed write leaves no event for a relist to replay)",
        hint: "return the error from reconcile so the queue retries the key with backoff, and read the desired and actual state from the caches by key, never from one event: a write that failed produces no event to act on",
        needs: [CONVERGES],
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "dropped"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            const faults = s.cluster.instruments?.faults;
            faults?.dropWatches();
            await s.scale("web", { replicas: 4 });
            const [child] = await s.children("web");
            await s.core.deleteNamespacedConfigMap({ name: child!.metadata!.name!, namespace: s.namespace });
            faults?.failNext("create", 4, 500, "configmaps");
            faults?.compactHistory();
            faults?.dropWatches();
            await s.waitConverged("web", 10_000);
          }),
      },
      {
        requirement:
          "a restart half way through a scale-up: a new instance finishes the job, keeps every child the first one made (UIDs compared) and makes no duplicates",
        hint: "the new instance starts with an empty memory: everything it needs must come from the caches (labels, ownerReferences)",
        needs: [CONVERGES],
        timeout: 30_000,
        run: () =>
          withScenario(Scenario.open(dir, "restart"), async (s) => {
            const first = await s.startController();
            const faults = s.cluster.instruments?.faults;
            faults?.latency(150, "create");
            try {
              await s.createSet("web", 8, { color: "blue" });
              await eventually(async () => (await s.children("web")).length >= 2, {
                timeout: 8000,
                interval: 20,
                description: "the first instance created 2 children",
              });
              await first.stop();
            } finally {
              faults?.latency(0, "create");
            }
            const made = (await s.children("web")).map((cm) => cm.metadata?.uid ?? "");
            await s.startController();
            await s.waitConverged("web", 10_000);
            const after = (await s.children("web")).map((cm) => cm.metadata?.uid ?? "");
            const lost = made.filter((uid) => !after.includes(uid));
            if (lost.length > 0)
              throw new Error(
                `${lost.length} of the ${made.length} children made before the restart were replaced`,
              );
            await consistently(async () => (await s.children("web")).length === 8, {
              duration: 1000,
              interval: 100,
              description: "exactly 8 children",
            });
          }),
      },
      {
        requirement:
          "a spec.data change updates the children in place: the same UIDs, and never fewer than spec.replicas children while it rolls out",
        hint: "replace the data of each child that differs (an update keeps the object and its UID); delete only children beyond spec.replicas",
        needs: [CONVERGES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "inplace"), async (s) => {
            await s.startController();
            await s.createSet("web", 3, { color: "blue" });
            await s.waitConverged("web");
            const before = await s.uids("web");
            let fewest = before.length;
            let sampling = true;
            const sampler = (async () => {
              while (sampling) {
                fewest = Math.min(fewest, (await s.children("web")).length);
                await sleep(10);
              }
            })();
            try {
              await s.scale("web", { data: { color: "green" } });
              await s.waitConverged("web");
            } finally {
              sampling = false;
              await sampler;
            }
            const after = await s.uids("web");
            const replaced = before.filter((uid) => !after.includes(uid)).length;
            if (replaced > 0)
              throw new Error(
                `${replaced} of the 3 children were deleted and made again for a data change (UIDs changed); at one moment only ${fewest} existed`,
              );
            if (fewest < 3) throw new Error(`while the data changed only ${fewest} of 3 children existed`);
          }),
      },
      {
        requirement:
          "no duplicates under a lagging cache: with watch events arriving late, a scale-up from 2 to 5 creates exactly 3 children and deletes none",
        hint: "the cache may not show a child you created a moment ago: give children deterministic names (<name>-<i>) so a second create answers AlreadyExists instead of making a duplicate",
        needs: [CONVERGES],
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "lag"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            const faults = s.cluster.instruments?.faults;
            const created = childWrites(s.cluster, "create");
            const deleted = childWrites(s.cluster, "delete");
            // Every watch closes after one event and takes 300 ms to come back: the caches trail the writes.
            faults?.dropWatchesEvery(1);
            faults?.latency(300, "watch");
            faults?.dropWatches(); // the rule applies to watches opened from now on: make every informer re-watch
            try {
              await s.scale("web", { replicas: 5 });
              await s.waitConverged("web", 12_000);
              await sleep(700);
            } finally {
              faults?.clear();
            }
            await s.waitConverged("web");
            if (created === undefined || deleted === undefined) return; // no request metrics on this backend
            const creates = (childWrites(s.cluster, "create") ?? 0) - created;
            const deletes = (childWrites(s.cluster, "delete") ?? 0) - deleted;
            if (creates !== 3 || deletes !== 0)
              throw new Error(
                `scaling from 2 to 5 created ${creates} children and deleted ${deletes}: duplicates were made while the cache lagged`,
              );
          }),
      },
      {
        requirement:
          "no hot loop and no needless writes: once converged, at most 2 reconciles and no writes in 2 s while nothing changes, and a restarted controller reconciles the converged set without writing",
        hint: "compare each child with the desired state and write only the ones that differ: an update that changes something comes back as an event, and every write, even one that changes nothing, is a request the API server must serve",
        needs: [CONVERGES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "hotloop"), async (s) => {
            const first = await s.startController();
            await s.createSet("web", 3, { color: "blue" });
            await s.waitConverged("web");
            await sleep(300);
            const before = await s.reconciles();
            const writesBefore = writeRequests(s.cluster);
            if (before === 0) throw new Error(`no reconcile was counted: ${s.track.noReconciles}`);
            await consistently(async () => (await s.reconciles()) - before <= 2, {
              duration: 2000,
              interval: 50,
              description: "at most 2 reconciles",
            }).catch(async () => {
              throw new Error(`${(await s.reconciles()) - before} reconciles in 2 s while nothing changed`);
            });
            const writes = writeRequests(s.cluster);
            if (writes !== undefined && writesBefore !== undefined && writes > writesBefore)
              throw new Error(`${writes - writesBefore} writes in 2 s while nothing changed`);
            // A wake-up with nothing to do: a new instance reconciles every ConfigSet once its caches sync. An
            // update that changes nothing makes no event (the server keeps the resourceVersion), so only this
            // shows a reconcile that writes every child on every pass.
            await first.stop();
            const second = await s.startController();
            await eventually(async () => (await second.reconciles()) > 0, {
              timeout: 5000,
              interval: 20,
              description: "the restarted instance reconciled web",
            });
            await sleep(500);
            const restarted = writeRequests(s.cluster);
            if (restarted !== undefined && writes !== undefined && restarted > writes)
              throw new Error(
                `${restarted - writes} writes by a restarted controller although every child already matched its ConfigSet`,
              );
          }),
      },
      {
        requirement:
          "reads come from the caches: after the informers' first LIST, no GET or LIST of ConfigSets or ConfigMaps while converging through a scale-up and a data change, nor in 2 s idle (request counts of the embedded server)",
        hint: "read the ConfigSet and its children through the informers' listers in every reconcile; a GET or LIST to the API server on each pass costs a request per reconcile",
        needs: [CONVERGES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "poll"), async (s) => {
            await s.startController();
            const start = readRequests(s.cluster);
            const ownStart = s.ownReads;
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            await s.scale("web", { replicas: 4, data: { color: "green" } });
            await s.waitConverged("web");
            const converged = readRequests(s.cluster);
            const own = s.ownReads - ownStart;
            await sleep(2000);
            const after = readRequests(s.cluster);
            if (start === undefined || converged === undefined || after === undefined) {
              if ((await s.reconciles()) === 0)
                throw new Error(`no reconcile was counted: ${s.track.noReconciles}`);
              return; // no request metrics on this backend: converging is all that can be checked here
            }
            // The grader's own reads (waitConverged's GET and LISTs) are counted too: subtract them.
            const busy = converged - start - own;
            const idle = after - converged;
            // An informer may relist once after a watch error: allow one LIST of each resource.
            if (busy > 2)
              throw new Error(
                `${busy} GET/LIST requests while converging (${await s.describeReconciles()}): the reconcile reads from the API server`,
              );
            if (idle > 0) throw new Error(`${idle} GET/LIST requests in 2 s while idle`);
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
