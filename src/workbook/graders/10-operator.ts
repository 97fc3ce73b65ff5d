/**
 * Grader of lab 10-operator: replicas of the learner's StaticSite operator run against a cluster with the workbook's
 * CRDs and a FakeCloud, a fresh namespace per check, some through a proxy of their own (support/replica-proxy.ts)
 * that counts their requests and can cut them off from their Lease. Outcomes only: the children and buckets, who
 * reconciled when (one leader at a time, a takeover after a crash), the operator's metrics, no hot loop.
 *
 * On either track: the TypeScript factory's replicas run in this process; the Go track's replicas are processes
 * of the learner's controller-runtime program (support/go-track.ts), which reach the cloud over HTTP, are told
 * their identity and Lease timings through the environment, crash by SIGKILL, and are read from their manager's
 * Prometheus metrics: reconciles, leader_election_master_status, the workqueue's depth and retries.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import { getControllerOf } from "../../meta/index.js";
import { FakeCloud, FakeCloudServer } from "../fake-cloud/index.js";
import { buildGoLab, isGoTrack } from "../grading/go-build.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { STATIC_SITE_FINALIZER, STATIC_SITE_LABEL, type StaticSite } from "../workbook-api/index.js";
import {
  GoLabController,
  gradingCluster,
  importLab,
  prepareTrack,
  ReplicaProxy,
  sleep,
  sumSamples,
  withScenario,
} from "./support/index.js";

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

/** The metrics a check reads, as {@link Replica.metrics} gives them. */
type OperatorMetrics = ReturnType<Replica["metrics"]>;

/** The Lease timings every replica runs with (the README states them). */
const LEASE = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 300 } as const;

/**
 * One replica as the checks drive it, on either track. `state()` says whether it leads and whether a reconcile
 * is running right now (the Go track samples controller_runtime_active_workers; the TypeScript track reports
 * false there, its overlaps are judged from the reconciles' own start and end times).
 */
interface GradedReplica {
  readonly identity: string;
  start(): Promise<void>;
  state(): Promise<{ leader: boolean; reconciling: boolean }>;
  /** Reconciles it has made so far. */
  reconciles(): Promise<number>;
  metrics(): Promise<OperatorMetrics>;
  stop(): Promise<void>;
  crash(): Promise<void>;
}

/** A replica of the TypeScript track: the learner's factory's, in this process. */
class InProcessReplica implements GradedReplica {
  constructor(
    private readonly inner: Replica,
    private readonly records: readonly ReconcileRecord[],
  ) {}
  get identity(): string {
    return this.inner.identity;
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  async state() {
    return { leader: this.inner.isLeader(), reconciling: false };
  }
  async reconciles(): Promise<number> {
    return this.records.filter((r) => r.identity === this.identity).length;
  }
  async metrics(): Promise<OperatorMetrics> {
    return this.inner.metrics();
  }
  stop(): Promise<void> {
    return this.inner.stop();
  }
  crash(): Promise<void> {
    return this.inner.crash();
  }
}

/** A replica of the Go track: a process of the learner's program, read from its manager's metrics. */
class GoReplica implements GradedReplica {
  constructor(
    readonly identity: string,
    private readonly program: GoLabController,
  ) {}
  start(): Promise<void> {
    return this.program.start();
  }
  /** A program that no longer runs (crashed, or exited after losing its Lease) neither leads nor reconciles. */
  async state() {
    const text = (await this.program.metrics()) ?? "";
    return {
      leader: sumSamples(text, "leader_election_master_status") > 0,
      reconciling: sumSamples(text, "controller_runtime_active_workers") > 0,
    };
  }
  reconciles(): Promise<number> {
    return this.program.reconciles();
  }
  async metrics(): Promise<OperatorMetrics> {
    const text = (await this.program.metrics()) ?? "";
    const sum = (metric: string) => sumSamples(text, metric);
    return {
      queueDepth: sum("workqueue_depth"),
      reconciles: sum("controller_runtime_reconcile_total"),
      errors: sum("controller_runtime_reconcile_errors_total"),
      retries: sum("workqueue_retries_total"),
      reconcileSeconds: {
        count: sum("controller_runtime_reconcile_time_seconds_count"),
        sum: sum("controller_runtime_reconcile_time_seconds_sum"),
        max: 0, // a histogram keeps no maximum; no check reads it
      },
    };
  }
  stop(): Promise<void> {
    return this.program.stop();
  }
  crash(): Promise<void> {
    return this.program.crash();
  }
}

/** The learner's operator: the TypeScript module, or the built Go program. */
type OperatorTrack = { language: "typescript"; mod: OperatorModule } | { language: "go"; binary: string };

/** How each track shows what a check reads, for messages. */
const SIGNALS = {
  typescript: { leader: "isLeader()", retries: "metrics().retries", errors: "metrics().errors" },
  go: {
    leader: "leader_election_master_status",
    retries: "workqueue_retries_total",
    errors: "controller_runtime_reconcile_errors_total",
  },
} as const;

/** Reconciles so far, per replica, at one moment: what "since then" counts from. */
interface Mark {
  at: number;
  counts: Map<string, number>;
}

const group = "workbook.dev";
const version = "v1alpha1";
const plural = "staticsites";

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab10", workbookApi: true });

/** A scenario: a fresh namespace and cloud, replicas of the operator under test, and a record of reconciles. */
class Scenario {
  /** Reconciles the TypeScript track's replicas reported (the Go track's are counted from their metrics). */
  readonly records: ReconcileRecord[] = [];
  readonly replicas: GradedReplica[] = [];
  /** The proxies of the replicas started with one, by identity. */
  readonly proxies = new Map<string, ReplicaProxy>();
  readonly cloud = new FakeCloud();
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  /** The cloud over HTTP and a folder for proxied kubeconfigs: the Go track's, made with its first replica. */
  private server: FakeCloudServer | undefined;
  private files: string | undefined;
  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly kubeconfigPath: string,
    readonly namespace: string,
    private readonly track: OperatorTrack,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  static async open(dir: string, label: string): Promise<Scenario> {
    const track: OperatorTrack = isGoTrack(dir)
      ? { language: "go", binary: (await buildGoLab(dir)).binary }
      : { language: "typescript", mod: await importLab<OperatorModule>(dir, "operator.js") };
    const c = await cluster.get();
    c.instruments?.faults.clear(); // every check starts with clean faults
    const namespace = await cluster.newNamespace(label);
    return new Scenario(c.kubeConfig, c.kubeconfigPath, namespace, track);
  }

  /** What this track's messages call the replica's signals. */
  get says() {
    return SIGNALS[this.track.language];
  }

  /**
   * Starts a replica; with `proxied`, it reaches the API server through a {@link ReplicaProxy} of its own (its
   * requests counted, its Lease requests cut off on demand).
   */
  async startReplica(identity: string, proxied = false): Promise<GradedReplica> {
    let kubeConfig = this.kubeConfig;
    if (proxied) {
      const proxy = await ReplicaProxy.start(this.kubeConfig);
      this.proxies.set(identity, proxy);
      kubeConfig = proxy.kubeConfig();
    }
    const replica =
      this.track.language === "go"
        ? await this.goReplica(this.track.binary, identity, proxied ? kubeConfig : undefined)
        : new InProcessReplica(
            this.track.mod.createOperator({
              kubeConfig,
              namespace: this.namespace,
              identity,
              cloud: this.cloud,
              ...LEASE,
              onReconcile: (r) => this.records.push(r),
            }),
            this.records,
          );
    this.replicas.push(replica);
    await replica.start();
    return replica;
  }

  /** A process of the Go program: this scenario's cloud over HTTP, its identity and the Lease timings. */
  private async goReplica(binary: string, identity: string, proxied?: KubeConfig): Promise<GoReplica> {
    this.server ??= await FakeCloudServer.start(this.cloud);
    let kubeconfigPath = this.kubeconfigPath;
    if (proxied) {
      this.files ??= await mkdtemp(join(tmpdir(), "workbook-lab10-"));
      kubeconfigPath = join(this.files, `${identity}.kubeconfig`);
      await writeFile(kubeconfigPath, proxied.exportConfig());
    }
    const program = new GoLabController(binary, {
      kubeconfigPath,
      namespace: this.namespace,
      mayExit: true, // a manager that lost its Lease ends its process: controller-runtime's way to stop acting
      env: {
        WORKBOOK_CLOUD_URL: this.server.url,
        WORKBOOK_IDENTITY: identity,
        WORKBOOK_LEASE_DURATION: `${LEASE.leaseDurationMs}ms`,
        WORKBOOK_RENEW_DEADLINE: `${LEASE.renewDeadlineMs}ms`,
        WORKBOOK_RETRY_PERIOD: `${LEASE.retryPeriodMs}ms`,
      },
    });
    return new GoReplica(identity, program);
  }

  /** Whether any replica leads now. */
  async anyLeader(): Promise<boolean> {
    const states = await Promise.all(this.replicas.map((r) => r.state()));
    return states.some((st) => st.leader);
  }

  /** Reconciles of every replica so far. */
  async reconciles(): Promise<number> {
    let total = 0;
    for (const r of this.replicas) total += await r.reconciles();
    return total;
  }

  /** Now, and each replica's reconciles so far. */
  async mark(): Promise<Mark> {
    const at = Date.now();
    const counts = new Map<string, number>();
    for (const r of this.replicas) counts.set(r.identity, await r.reconciles());
    return { at, counts };
  }

  /**
   * Reconciles since `mark` (of replica `identity`, or all): on the TypeScript track the reports that started
   * after it, on the Go track the growth of the counters.
   */
  async since(mark: Mark, identity?: string): Promise<number> {
    if (this.track.language === "typescript")
      return this.records.filter((r) => r.startedAt >= mark.at && (!identity || r.identity === identity))
        .length;
    let n = 0;
    for (const r of this.replicas)
      if (!identity || r.identity === identity)
        n += (await r.reconciles()) - (mark.counts.get(r.identity) ?? 0);
    return n;
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
    let activity = await this.activity();
    let lastActive = started;
    for (;;) {
      const why = await this.notConverged(name, replicas, content);
      if (why === undefined) return;
      const now = Date.now();
      const waited = now - started;
      if (waited > 3000 && (await this.reconciles()) === 0 && !(await this.anyLeader()))
        throw new Error(`after ${waited} ms: ${why}; no replica is leader and none reported a reconcile`);
      if (waited > timeout) throw new Error(`after ${timeout} ms: ${why}`);
      const seen = await this.activity();
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

  /** Reconciles and writes of ConfigMaps and StaticSites sent by every replica, as one token. */
  private async activity(): Promise<string> {
    let writes = 0;
    for (const proxy of this.proxies.values())
      writes += proxy.requests(["create", "update", "patch", "delete"], /^(configmaps|staticsites)/);
    return `${await this.reconciles()}/${writes}`;
  }

  /** GET and LIST requests for ConfigMaps and StaticSites that replica `identity` sent so far. */
  reads(identity: string): number {
    return this.proxies.get(identity)?.requests(["get", "list"], /^(configmaps|staticsites)$/) ?? 0;
  }

  async close(): Promise<void> {
    for (const proxy of this.proxies.values()) proxy.cutLeases(false);
    await Promise.all(this.replicas.map((r) => r.stop().catch(() => {})));
    await Promise.all([...this.proxies.values()].map((p) => p.stop()));
    await this.server?.stop();
    if (this.files) await rm(this.files, { recursive: true, force: true });
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
    await prepareTrack(dir);
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
                `the replica sent ${reads} GET/LIST requests for ConfigMaps or StaticSites while converging (${await s.reconciles()} reconciles)`,
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
            // Sampled all along: both leading at once, and (Go track) both reconciling at once.
            let bothLead = 0;
            let bothReconcile = 0;
            let sampling = true;
            const sampler = (async () => {
              while (sampling) {
                const [x, y] = await Promise.all([a.state(), b.state()]);
                if (x.leader && y.leader) bothLead++;
                if (x.reconciling && y.reconciling) bothReconcile++;
                await sleep(10);
              }
            })();
            try {
              await s.createSite("web", 2, "v1");
              await s.waitConverged("web", 2, "v1");
              const actors: GradedReplica[] = [];
              for (const r of [a, b]) if ((await r.reconciles()) > 0) actors.push(r);
              if (actors.length !== 1)
                throw new Error(
                  `reconciles by ${actors.length} replicas before any crash: ${actors.map((r) => r.identity).join(", ")}`,
                );
              const leader = actors[0]!;
              const standby = leader === a ? b : a;
              if (!(await leader.state()).leader)
                throw new Error(`${leader.identity} reconciled but ${s.says.leader} says it does not lead`);
              const crashed = await s.mark();
              await leader.crash();
              const crashDone = await s.mark();
              await s.updateSpec("web", { replicas: 4 });
              await s.waitConverged("web", 4, "v1", 10_000);
              const late = await s.since(crashDone, leader.identity);
              if (late > 0) throw new Error(`${leader.identity} reconciled ${late} times after its crash`);
              if ((await s.since(crashed, standby.identity)) === 0)
                throw new Error(`${standby.identity} never reconciled after the crash`);
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
              if (bothReconcile > 0)
                throw new Error(`both replicas were reconciling at once in ${bothReconcile} samples`);
              if (bothLead > 0) throw new Error(`both replicas said ${s.says.leader} in ${bothLead} samples`);
            } finally {
              sampling = false;
              await sampler;
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
            const ledAtCut = (await a.state()).leader;
            s.proxies.get("op-a")!.cutLeases(true);
            const cutAt = Date.now();
            await eventually(async () => !(await a.state()).leader, { timeout: 6000, interval: 50 }).catch(
              () => {
                throw new Error(
                  `op-a still says ${s.says.leader} ${Date.now() - cutAt} ms after its Lease requests started failing (renewDeadline 1500 ms)`,
                );
              },
            );
            const lost = await s.mark();
            await s.updateSpec("web", { replicas: 4 });
            await consistently(
              async () => {
                const late = await s.since(lost);
                if (late > 0)
                  throw new Error(
                    `op-a reconciled ${late} times after it lost its Lease (${ledAtCut ? `${s.says.leader} false ${lost.at - cutAt} ms after the cut` : `${s.says.leader} was false already when the cut began`})`,
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
            await eventually(async () => (await op.metrics()).retries >= 3, {
              timeout: 5000,
              interval: 50,
              description: `${s.says.retries} >= 3 while the cloud is down`,
            });
            s.cloud.setDown(false);
            await s.waitConverged("web", 1, "v1");
            await eventually(async () => (await op.metrics()).queueDepth === 0, {
              timeout: 3000,
              interval: 50,
              description: "queue depth 0 once converged",
            });
            const m = await op.metrics();
            if (m.reconcileSeconds.count < 4 || m.reconcileSeconds.count > m.reconciles)
              throw new Error(
                `reconcileSeconds.count is ${m.reconcileSeconds.count} after ${m.reconciles} reconciles`,
              );
            if (!(m.reconcileSeconds.sum > 0)) throw new Error("reconcile latency sums to 0 s");
            if (m.errors < 3) throw new Error(`${s.says.errors} is ${m.errors} after the cloud was down`);
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
            const converged = await s.mark();
            await consistently(async () => (await s.since(converged)) <= 3, { duration: 2000, interval: 50 });
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
