/**
 * Grader of lab 10-operator: replicas of the learner's StaticSite operator run against a cluster with the workbook's
 * CRDs and a FakeCloud, a fresh namespace per check, some through a proxy of their own (support/replica-proxy.ts)
 * that counts their requests and can cut them off from their Lease. Outcomes only: the children and buckets, who
 * reconciled when (one leader at a time, a takeover after a crash), the operator's metrics, no hot loop.
 */
import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import { getControllerOf } from "../../meta/index.js";
import { FakeCloud } from "../fake-cloud/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { STATIC_SITE_FINALIZER, STATIC_SITE_LABEL, type StaticSite } from "../workbook-api/index.js";
import { gradingCluster, importLab, ReplicaProxy, withScenario } from "./support/index.js";

/** What `labs/10-operator/operator.ts` must export (its README): a factory of one replica of the operator. */
export interface OperatorModule {
  createOperator(options: OperatorOptions): Replica;
}

/** How the grader builds a replica: every replica of one operator shares namespace, cloud and Lease. */
export interface OperatorOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  identity: string;
  cloud: FakeCloud;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onReconcile?: (record: ReconcileRecord) => void;
}

/** One reconcile, as the replica that ran it reported it (ms since the epoch): how the grader sees who acts. */
export interface ReconcileRecord {
  identity: string;
  key: string;
  startedAt: number;
  endedAt: number;
  error?: string;
}

/** A running replica: `stop()` is a graceful shutdown (the Lease released), `crash()` a kill -9. */
export interface Replica {
  readonly identity: string;
  start(): Promise<void>;
  isLeader(): boolean;
  /** The operator's own metrics (workqueue_depth, reconciles and errors, workqueue_retries_total, durations). */
  metrics(): {
    queueDepth: number;
    reconciles: number;
    errors: number;
    retries: number;
    reconcileSeconds: { count: number; sum: number; max: number };
  };
  stop(): Promise<void>;
  crash(): Promise<void>;
}

const group = "workbook.dev";
const version = "v1alpha1";
const plural = "staticsites";

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab10", workbookApi: true });

/** A scenario: a fresh namespace and cloud, replicas of the operator under test, and a record of reconciles. */
class Scenario {
  readonly records: ReconcileRecord[] = [];
  readonly replicas: Replica[] = [];
  /** The proxies of the replicas started with one, by identity. */
  readonly proxies = new Map<string, ReplicaProxy>();
  readonly cloud = new FakeCloud();
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  constructor(
    readonly kubeConfig: KubeConfig,
    readonly namespace: string,
    private readonly mod: OperatorModule,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  static async open(dir: string, label: string): Promise<Scenario> {
    const mod = await importLab<OperatorModule>(dir, "operator.js");
    const c = await cluster.get();
    c.instruments?.faults.clear(); // every check starts with clean faults
    const namespace = await cluster.newNamespace(label);
    return new Scenario(c.kubeConfig, namespace, mod);
  }

  /**
   * Starts a replica; with `proxied`, it reaches the API server through a {@link ReplicaProxy} of its own (its
   * requests counted, its Lease requests cut off on demand).
   */
  async startReplica(identity: string, proxied = false): Promise<Replica> {
    let kubeConfig = this.kubeConfig;
    if (proxied) {
      const proxy = await ReplicaProxy.start(this.kubeConfig);
      this.proxies.set(identity, proxy);
      kubeConfig = proxy.kubeConfig();
    }
    const replica = this.mod.createOperator({
      kubeConfig,
      namespace: this.namespace,
      identity,
      cloud: this.cloud,
      leaseDurationMs: 2000,
      renewDeadlineMs: 1500,
      retryPeriodMs: 300,
      onReconcile: (r) => this.records.push(r),
    });
    this.replicas.push(replica);
    await replica.start();
    return replica;
  }

  async createSite(name: string, replicas: number, content: string): Promise<void> {
    await this.custom.createNamespacedCustomObject({
      group,
      version,
      plural,
      namespace: this.namespace,
      body: {
        apiVersion: `${group}/${version}`,
        kind: "StaticSite",
        metadata: { name },
        spec: { replicas, content },
      },
    });
  }

  async site(name: string): Promise<StaticSite | undefined> {
    try {
      return (await this.custom.getNamespacedCustomObject({
        group,
        version,
        plural,
        namespace: this.namespace,
        name,
      })) as StaticSite;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  }

  async updateSpec(name: string, change: Partial<StaticSite["spec"]>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const site = (await this.site(name))!;
      try {
        await this.custom.replaceNamespacedCustomObject({
          group,
          version,
          plural,
          namespace: this.namespace,
          name,
          body: { ...site, spec: { ...site.spec, ...change } },
        });
        return;
      } catch (err) {
        if ((err as { code?: number }).code !== 409 || attempt > 10) throw err;
      }
    }
  }

  /** The ConfigMaps labelled as children of `name`. */
  async children(name: string): Promise<V1ConfigMap[]> {
    const list = await this.core.listNamespacedConfigMap({
      namespace: this.namespace,
      labelSelector: `${STATIC_SITE_LABEL}=${name}`,
    });
    return list.items;
  }

  /** Why `name` has not converged to `replicas` x `content` (undefined once it has). */
  async notConverged(name: string, replicas: number, content: string): Promise<string | undefined> {
    const site = await this.site(name);
    if (!site) return `StaticSite ${name} not found`;
    const kids = await this.children(name);
    const owned = kids.filter((cm) => getControllerOf(cm)?.uid === site.metadata.uid);
    if (owned.length !== kids.length)
      return `${kids.length - owned.length} of ${kids.length} children have no controller ownerReference to the site`;
    if (owned.length !== replicas) return `${owned.length} children, want ${replicas}`;
    const stale = owned.filter((cm) => cm.data?.["index.html"] !== content).length;
    if (stale > 0) return `${stale} children do not carry data["index.html"] = spec.content`;
    const bucket = this.cloud.peek(`${this.namespace}-${name}`);
    if (!bucket) return `no bucket named ${this.namespace}-${name} in the fake cloud`;
    const s = site.status;
    const ready = s?.conditions?.find((c) => c.type === "Ready");
    if (s?.observedGeneration !== site.metadata.generation)
      return `status.observedGeneration is ${s?.observedGeneration}, metadata.generation is ${site.metadata.generation}`;
    if (s?.replicas !== replicas || s?.readyReplicas !== replicas)
      return `status.replicas=${s?.replicas}, status.readyReplicas=${s?.readyReplicas}, want ${replicas}`;
    if (s?.bucketId !== bucket.id)
      return `status.bucketId is ${s?.bucketId}, the bucket's id is ${bucket.id}`;
    if (ready?.status !== "True") return `condition Ready is ${ready?.status ?? "missing"}`;
    return undefined;
  }

  /**
   * Polls until `name` has converged; fails with the last reason after `timeout` ms, or after 3 s when nothing
   * runs at all (no replica leads and none has reported a reconcile). With `quietMs` (only where no fault can
   * hold a retry back), it also fails as soon as the outcome is decided: not converged and the replicas quiet
   * (no reconcile, no write) for that long, so nothing is left that would fix it.
   */
  async waitConverged(
    name: string,
    replicas: number,
    content: string,
    timeout = 8000,
    quietMs?: number,
  ): Promise<void> {
    const started = Date.now();
    let activity = this.activity();
    let lastActive = started;
    for (;;) {
      const why = await this.notConverged(name, replicas, content);
      if (why === undefined) return;
      const now = Date.now();
      const waited = now - started;
      if (waited > 3000 && this.records.length === 0 && !this.replicas.some((r) => r.isLeader()))
        throw new Error(`after ${waited} ms: ${why}; no replica is leader and none reported a reconcile`);
      if (waited > timeout) throw new Error(`after ${timeout} ms: ${why}`);
      const seen = this.activity();
      if (seen !== activity) {
        activity = seen;
        lastActive = now;
      }
      if (quietMs !== undefined && now - lastActive >= quietMs)
        throw new Error(
          `${why}, and no replica has reconciled or written anything for ${quietMs / 1000} s, so nothing will fix it`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Reconciles reported and writes of ConfigMaps and StaticSites sent by every replica, as one token. */
  private activity(): string {
    let writes = 0;
    for (const proxy of this.proxies.values())
      writes += proxy.requests(["create", "update", "patch", "delete"], /^(configmaps|staticsites)/);
    return `${this.records.length}/${writes}`;
  }

  /** GET and LIST requests for ConfigMaps and StaticSites that replica `identity` sent so far. */
  reads(identity: string): number {
    return this.proxies.get(identity)?.requests(["get", "list"], /^(configmaps|staticsites)$/) ?? 0;
  }

  async close(): Promise<void> {
    for (const proxy of this.proxies.values()) proxy.cutLeases(false);
    await Promise.all(this.replicas.map((r) => r.stop().catch(() => {})));
    await Promise.all([...this.proxies.values()].map((p) => p.stop()));
    this.cloud.stop();
    await this.core.deleteNamespace({ name: this.namespace }).catch(() => {});
  }
}

/** Pairs of reconciles by different replicas that overlapped in time. */
function overlaps(records: readonly ReconcileRecord[]): string[] {
  const found: string[] = [];
  for (const a of records)
    for (const b of records)
      if (a.identity < b.identity && a.startedAt < b.endedAt && b.startedAt < a.endedAt)
        found.push(
          `${a.identity} [${a.startedAt}, ${a.endedAt}] and ${b.identity} [${b.startedAt}, ${b.endedAt}]`,
        );
  return found;
}

/** Grader of labs/10-operator: the capstone operator, graded on outcomes against a cluster and a fake cloud. */
export default defineLab({
  title: "the StaticSite operator",
  async checks(dir) {
    return [
      {
        requirement:
          "a new StaticSite converges: spec.replicas children owned by it, a bucket in the cloud, status Ready with observedGeneration, replicas, readyReplicas and bucketId",
        hint: "reconcile in order: finalizer, bucket (getBucket, createBucket when missing), children, then status",
        timeout: 40_000, // the first check also starts the cluster
        run: () =>
          withScenario(Scenario.open(dir, "converge"), async (s) => {
            await s.startReplica("op-a");
            await s.createSite("web", 3, "<h1>v1</h1>");
            await s.waitConverged("web", 3, "<h1>v1</h1>");
          }),
      },
      {
        requirement:
          "scale up, scale down and drift converge: children follow spec.replicas and spec.content, a changed or deleted child is restored",
        hint: "list the children from the cache by label and owner, then create the missing, update the changed and delete the extra ones; a child's event must queue its owner's key (its controller ownerReference), or a changed or deleted child waits for the site's next change",
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "scale"), async (s) => {
            await s.startReplica("op-a");
            await s.createSite("web", 2, "v1");
            await s.waitConverged("web", 2, "v1");
            await s.updateSpec("web", { replicas: 5 });
            await s.waitConverged("web", 5, "v1");
            await s.updateSpec("web", { replicas: 1, content: "v2" });
            await s.waitConverged("web", 1, "v2");
            const [child] = await s.children("web");
            await s.core.replaceNamespacedConfigMap({
              name: child!.metadata!.name!,
              namespace: s.namespace,
              body: { ...child!, data: { "index.html": "defaced" } },
            });
            // Only a child's event can wake the owner here: a replica quiet for 3 s never will.
            await s.waitConverged("web", 1, "v2", 8000, 3000);
            const [again] = await s.children("web");
            await s.core.deleteNamespacedConfigMap({ name: again!.metadata!.name!, namespace: s.namespace });
            await s.waitConverged("web", 1, "v2", 8000, 3000);
          }),
      },
      {
        requirement:
          "a content change updates the children in place: the same UIDs, and never fewer children than min(old, new) replicas while it converges",
        hint: "a child whose data differs is updated (replace or patch it), never deleted and created again; delete only the children beyond spec.replicas",
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "in-place"), async (s) => {
            await s.startReplica("op-a");
            await s.createSite("web", 3, "v1");
            await s.waitConverged("web", 3, "v1");
            const uids = new Map(
              (await s.children("web")).map((cm) => [cm.metadata!.name!, cm.metadata!.uid!]),
            );
            let floor = 3;
            let fewest = Number.POSITIVE_INFINITY;
            let dipped = "";
            let sampling = true;
            const sampler = (async () => {
              while (sampling) {
                const n = (await s.children("web")).length;
                if (n < floor && n < fewest) {
                  fewest = n;
                  dipped = `${n} children while converging to ${floor === 3 ? "3 x v2" : "2 x v3"}`;
                }
                await new Promise((r) => setTimeout(r, 20));
              }
            })();
            try {
              await s.updateSpec("web", { content: "v2" });
              await s.waitConverged("web", 3, "v2");
              floor = 2;
              await s.updateSpec("web", { replicas: 2, content: "v3" });
              await s.waitConverged("web", 2, "v3");
            } finally {
              sampling = false;
              await sampler;
            }
            const replaced = (await s.children("web")).filter(
              (cm) => uids.get(cm.metadata!.name!) !== cm.metadata!.uid,
            );
            if (replaced.length > 0)
              throw new Error(
                `${replaced.length} children were recreated (new UIDs) for a content change: ${replaced.map((cm) => cm.metadata!.name).join(", ")}`,
              );
            if (dipped) throw new Error(`the site served with too few children: ${dipped}`);
          }),
      },
      {
        requirement:
          "reconciles read the caches: a scale-up and a content change converge without one GET or LIST of ConfigMaps or StaticSites from the replica",
        hint: "read the site and its children from the listers (deps.sites, deps.children), never with a GET or LIST per reconcile: the informers already hold them",
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "cache-reads"), async (s) => {
            await s.startReplica("op-a", true);
            const synced = s.reads("op-a"); // the informers' first LISTs
            await s.createSite("web", 2, "v1");
            await s.waitConverged("web", 2, "v1");
            await s.updateSpec("web", { replicas: 4 });
            await s.waitConverged("web", 4, "v1");
            await s.updateSpec("web", { content: "v2" });
            await s.waitConverged("web", 4, "v2");
            const reads = s.reads("op-a") - synced;
            if (reads > 0)
              throw new Error(
                `the replica sent ${reads} GET/LIST requests for ConfigMaps or StaticSites while converging (${s.records.length} reconciles)`,
              );
          }),
      },
      {
        requirement:
          "two replicas never reconcile at the same time; after the leader crashes the other takes over and converges the next change",
        hint: "run the controller only inside onStartedLeading, and stop it when its signal aborts",
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "failover"), async (s) => {
            const a = await s.startReplica("op-a");
            const b = await s.startReplica("op-b");
            let both = 0;
            const sampler = setInterval(() => {
              if (a.isLeader() && b.isLeader()) both++;
            }, 10);
            try {
              await s.createSite("web", 2, "v1");
              await s.waitConverged("web", 2, "v1");
              const actors = [...new Set(s.records.map((r) => r.identity))];
              if (actors.length !== 1)
                throw new Error(
                  `reconciles by ${actors.length} replicas before any crash: ${actors.join(", ")}`,
                );
              const leader = actors[0] === "op-a" ? a : b;
              const standby = leader === a ? b : a;
              if (!leader.isLeader())
                throw new Error(`${leader.identity} reconciled but isLeader() is false`);
              const crashedAt = Date.now();
              await leader.crash();
              const crashDone = Date.now();
              await s.updateSpec("web", { replicas: 4 });
              await s.waitConverged("web", 4, "v1", 10_000);
              const late = s.records.filter((r) => r.identity === leader.identity && r.startedAt > crashDone);
              if (late.length > 0)
                throw new Error(`${leader.identity} reconciled ${late.length} times after its crash`);
              const took = s.records.filter(
                (r) => r.identity === standby.identity && r.startedAt >= crashedAt,
              );
              if (took.length === 0) throw new Error(`${standby.identity} never reconciled after the crash`);
              const lease = await s.kubeConfig
                .makeApiClient(CoordinationV1Api)
                .listNamespacedLease({ namespace: s.namespace });
              const holders = lease.items.map((l) => l.spec?.holderIdentity);
              if (!holders.includes(standby.identity))
                throw new Error(
                  `no Lease in the namespace names ${standby.identity} as holder: ${holders.join(", ")}`,
                );
              const clash = overlaps(s.records);
              if (clash.length > 0)
                throw new Error(`overlapping reconciles: ${clash.slice(0, 3).join("; ")}`);
              if (both > 0) throw new Error(`both replicas said isLeader() in ${both} samples`);
            } finally {
              clearInterval(sampler);
            }
          }),
      },
      {
        requirement:
          "a leader cut off from its Lease stops acting: once renewDeadline has passed without a renewal it reconciles nothing and changes no child",
        hint: "tie the controller to leadership: run it with the signal onStartedLeading gives you and let every reconcile stop when it aborts; onStoppedLeading alone does not stop workers",
        timeout: 25_000,
        run: () =>
          withScenario(Scenario.open(dir, "lease-cut"), async (s) => {
            const a = await s.startReplica("op-a", true);
            await s.createSite("web", 2, "v1");
            await s.waitConverged("web", 2, "v1");
            // Only op-a's Lease requests fail from now on; it still reaches sites and ConfigMaps.
            const ledAtCut = a.isLeader();
            s.proxies.get("op-a")!.cutLeases(true);
            const cutAt = Date.now();
            await eventually(() => !a.isLeader(), { timeout: 6000, interval: 50 }).catch(() => {
              throw new Error(
                `op-a still says isLeader() ${Date.now() - cutAt} ms after its Lease requests started failing (renewDeadline 1500 ms)`,
              );
            });
            const lostAt = Date.now();
            await s.updateSpec("web", { replicas: 4 });
            await consistently(
              async () => {
                const late = s.records.filter((r) => r.startedAt >= lostAt);
                if (late.length > 0)
                  throw new Error(
                    `op-a reconciled ${late.length} times after it lost its Lease (${ledAtCut ? `isLeader() false ${lostAt - cutAt} ms after the cut` : "isLeader() was false already when the cut began"})`,
                  );
                const kids = (await s.children("web")).length;
                if (kids !== 2)
                  throw new Error(`op-a changed the children (${kids}, was 2) after it lost its Lease`);
              },
              { duration: 1500, interval: 50 },
            );
          }),
      },
      {
        requirement: `deleting a StaticSite deletes its bucket exactly once, through the finalizer ${STATIC_SITE_FINALIZER}, even when the first delete call fails; then the site is gone`,
        hint: "on a site with deletionTimestamp: deleteBucket (a missing bucket counts as deleted), and remove the finalizer only after it succeeded",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "finalizer"), async (s) => {
            await s.startReplica("op-a");
            await s.createSite("web", 1, "v1");
            await s.waitConverged("web", 1, "v1");
            const site = await s.site("web");
            if (!site?.metadata.finalizers?.includes(STATIC_SITE_FINALIZER))
              throw new Error(
                `the site carries finalizers ${JSON.stringify(site?.metadata.finalizers ?? [])}`,
              );
            const bucket = `${s.namespace}-web`;
            s.cloud.failNext("delete", 1);
            await s.custom.deleteNamespacedCustomObject({
              group,
              version,
              plural,
              namespace: s.namespace,
              name: "web",
            });
            let why = "";
            try {
              await eventually(
                async () => {
                  const left = await s.site("web");
                  why = left
                    ? `the site still exists (finalizers ${JSON.stringify(left.metadata.finalizers)})`
                    : "";
                  return left === undefined;
                },
                { timeout: 8000, interval: 50 },
              );
            } catch {
              throw new Error(`8 s after the delete: ${why}`);
            }
            if (s.cloud.has(bucket))
              throw new Error(`the site is gone but bucket ${bucket} is still in the cloud`);
            const deletes = s.cloud.calls.count({ verb: "delete", bucket, effective: true });
            if (deletes !== 1) throw new Error(`the bucket was deleted ${deletes} times`);
            const tries = s.cloud.calls.count({ verb: "delete", bucket });
            if (tries < 2)
              throw new Error(`${tries} delete call(s): the failed first delete was not retried`);
          }),
      },
      {
        requirement:
          "status tells the truth: Degraded=True and a Warning Event while the cloud is down, Ready=True and Degraded=False once it is back",
        hint: "when a cloud call fails, set the conditions, write the status and record the Event before returning the error",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "degraded"), async (s) => {
            await s.startReplica("op-a");
            s.cloud.setDown(true);
            await s.createSite("web", 1, "v1");
            let seen = "";
            try {
              await eventually(
                async () => {
                  const site = await s.site("web");
                  const c = site?.status?.conditions ?? [];
                  const degraded = c.find((x) => x.type === "Degraded");
                  const ready = c.find((x) => x.type === "Ready");
                  seen = `Degraded=${degraded?.status}, Ready=${ready?.status}, observedGeneration=${site?.status?.observedGeneration}`;
                  return (
                    degraded?.status === "True" &&
                    ready?.status !== "True" &&
                    site?.status?.observedGeneration === site?.metadata.generation
                  );
                },
                { timeout: 6000, interval: 50 },
              );
            } catch {
              throw new Error(`with the cloud down, after 6 s: ${seen}`);
            }
            await eventually(
              async () => {
                const events = await s.core.listNamespacedEvent({ namespace: s.namespace });
                return events.items.some(
                  (e) => e.type === "Warning" && e.involvedObject.kind === "StaticSite",
                );
              },
              { timeout: 3000, interval: 100, description: "a Warning Event about the StaticSite" },
            );
            s.cloud.setDown(false);
            await s.waitConverged("web", 1, "v1");
            const degraded = (await s.site("web"))?.status?.conditions?.find((c) => c.type === "Degraded");
            if (degraded?.status !== "False")
              throw new Error(`Degraded is ${degraded?.status} after recovery`);
          }),
      },
      {
        requirement:
          "metrics count what to alert on: retries grow while the cloud is down, reconcile latency is observed, the queue drains to depth 0",
        hint: "name the queue and give it the InMemoryMetricsProvider; a failed reconcile must throw so the key is retried with backoff",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "metrics"), async (s) => {
            const op = await s.startReplica("op-a");
            s.cloud.setDown(true);
            await s.createSite("web", 1, "v1");
            await eventually(() => op.metrics().retries >= 3, {
              timeout: 5000,
              interval: 50,
              description: "metrics().retries >= 3 while the cloud is down",
            });
            s.cloud.setDown(false);
            await s.waitConverged("web", 1, "v1");
            await eventually(() => op.metrics().queueDepth === 0, {
              timeout: 3000,
              interval: 50,
              description: "queue depth 0 once converged",
            });
            const m = op.metrics();
            if (m.reconcileSeconds.count < 4 || m.reconcileSeconds.count > m.reconciles)
              throw new Error(
                `reconcileSeconds.count is ${m.reconcileSeconds.count} after ${m.reconciles} reconciles`,
              );
            if (!(m.reconcileSeconds.sum > 0)) throw new Error("reconcile latency sums to 0 s");
            if (m.errors < 3) throw new Error(`metrics().errors is ${m.errors} after the cloud was down`);
          }),
      },
      {
        requirement: "no hot loop: once converged, a StaticSite is reconciled at most 3 times in 2 s",
        hint: "write the status only when it changed: every write is an event that enqueues the site again",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "hotloop"), async (s) => {
            await s.startReplica("op-a");
            await s.createSite("web", 2, "v1");
            await s.waitConverged("web", 2, "v1");
            await new Promise((r) => setTimeout(r, 300));
            const before = s.records.length;
            await consistently(() => s.records.length - before <= 3, { duration: 2000, interval: 50 });
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
