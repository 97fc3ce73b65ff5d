import { CoreV1Api, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import { joinKey } from "../../apimachinery/keys.js";
import type { MetaObject } from "../../apimachinery/object.js";
import { SharedInformerFactory } from "../../cache/factory.js";
import { Lister } from "../../cache/lister.js";
import { unwrapTombstone } from "../../cache/tombstone.js";
import { BuiltinResources } from "../../client/resource-descriptor.js";
import { Controller } from "../../controller/controller.js";
import { enqueueHandler } from "../../controller/enqueue-handler.js";
import { EventRecorder } from "../../controller/event-recorder.js";
import { LeaderElector } from "../../leaderelection/leader-elector.js";
import { LeaseLock } from "../../leaderelection/lease-lock.js";
import type { ResourceLock } from "../../leaderelection/resource-lock.js";
import { getControllerOf } from "../../meta/owner-references.js";
import { InMemoryMetricsProvider } from "../../workqueue/metrics.js";
import { ItemExponentialFailureRateLimiter } from "../../workqueue/rate-limiters/item-exponential-failure-rate-limiter.js";
import { RateLimitingQueue } from "../../workqueue/rate-limiting-queue.js";
import { STATIC_SITE_LABEL, WorkbookResources } from "../workbook-api/constants.js";
import type { StaticSite } from "../workbook-api/types.js";

/** One reconcile, as the replica that ran it saw it (ms since the epoch). */
export interface ReconcileRecord {
  identity: string;
  key: string;
  startedAt: number;
  endedAt: number;
  error?: string;
}

/** A mark on a lease timeline: a replica acquired the Lease, or crashed (same shape as viz's `LeaseEvent`). */
export interface ReplicaLeaseEvent {
  at: number;
  candidate: string;
  kind: "acquired" | "crashed";
}

/**
 * A lock that fails every call once its process is dead, so a crash releases nothing and renews nothing: the
 * Lease is left to expire, as it is when a pod is killed with SIGKILL (no `ReleaseOnCancel` runs).
 */
export class CrashableLock implements ResourceLock {
  /** Once true, every call to the API through this lock throws. */
  dead = false;
  constructor(private readonly inner: ResourceLock) {}
  private alive() {
    if (this.dead) throw new Error(`${this.inner.identity()} is dead`);
  }
  async get() {
    this.alive();
    return this.inner.get();
  }
  async create(r: Parameters<ResourceLock["create"]>[0]) {
    this.alive();
    return this.inner.create(r);
  }
  async update(r: Parameters<ResourceLock["update"]>[0]) {
    this.alive();
    return this.inner.update(r);
  }
  recordEvent(message: string) {
    this.inner.recordEvent(message);
  }
  identity() {
    return this.inner.identity();
  }
  describe() {
    return this.inner.describe();
  }
}

/** What a {@link StaticSiteReplica}'s reconcile reads through: the replica's caches and its recorder. */
export interface ReplicaContext {
  identity: string;
  sites: Lister<StaticSite>;
  children: Lister<V1ConfigMap>;
  events: EventRecorder;
}

/** Options of a {@link StaticSiteReplica}. */
export interface StaticSiteReplicaOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  /** The holder identity written to the Lease (a pod name in a real deployment). */
  identity: string;
  /** Whether to campaign for the Lease (false: run the controller unconditionally, the naive setup). */
  elect: boolean;
  /** The level-triggered reconcile of one key; `signal` aborts when leadership is lost. */
  reconcile: (key: string, signal: AbortSignal, ctx: ReplicaContext) => Promise<void>;
  /** Lease name (default "staticsite-operator"). */
  leaseName?: string;
  /** Election timings in ms (default 3000 / 2500 / 400: short, so failover fits in a notebook cell). */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Controller workers (default 2). */
  workers?: number;
  /** Every reconcile is appended here. */
  reconciles?: ReconcileRecord[];
  /** Called when this replica acquires the Lease or crashes (for a lease timeline). */
  onLeaseEvent?: (event: ReplicaLeaseEvent) => void;
}

/**
 * One replica (one process, one pod) of the StaticSite operator: its own shared informers for StaticSites and
 * their ConfigMap children, and, while it leads, a named rate-limited queue with metrics and a `Controller`.
 * Mirrors a controller-manager process: caches run on every replica (the workbook's warm-standby choice), only
 * the Lease holder reconciles. A child's events enqueue its controller owner's key (controller-runtime's
 * `Owns()`), the site's own events its key (`enqueueHandler`). client-go's elector does not campaign again
 * after losing its lease (the process exits and the pod restarts); this replica "restarts" by campaigning
 * again, counted in {@link restarts}, and uses one queue name per leadership term so the metrics of each term
 * stay apart.
 */
export class StaticSiteReplica {
  readonly identity: string;
  readonly factory: SharedInformerFactory;
  readonly sites;
  readonly children;
  readonly metricsProvider = new InMemoryMetricsProvider();
  readonly lock: CrashableLock;
  readonly events: EventRecorder;
  elector: LeaderElector | undefined;
  /** True while this replica's controller runs. */
  leading = false;
  /** Times this replica lost its lease and, like a restarted pod, campaigned again. */
  restarts = 0;
  private term = 0;
  private stopped = false;
  private running: AbortController | undefined;
  private controllerDone: Promise<void> | undefined;

  constructor(private readonly options: StaticSiteReplicaOptions) {
    const { kubeConfig: kc, namespace, identity } = options;
    this.identity = identity;
    this.factory = new SharedInformerFactory(kc, { namespace, onError: () => {} });
    this.sites = this.factory.informerFor<StaticSite>(WorkbookResources.staticSites);
    this.children = this.factory.informerFor<V1ConfigMap>(BuiltinResources.configMaps, {
      labelSelector: STATIC_SITE_LABEL,
    });
    const name = options.leaseName ?? "staticsite-operator";
    this.lock = new CrashableLock(new LeaseLock(kc, { namespace, name, identity }));
    this.events = new EventRecorder({
      api: kc.makeApiClient(CoreV1Api),
      component: "staticsite-operator",
      host: identity,
    });
  }

  /** Starts the informers, waits for their caches, then runs (or campaigns, with `elect`). */
  async start(): Promise<void> {
    this.factory.start();
    await this.factory.waitForCacheSync({ timeoutMs: 30_000 });
    if (!this.options.elect) {
      this.running = new AbortController();
      this.controllerDone = this.lead(this.running.signal);
      return;
    }
    this.campaign();
  }

  private campaign() {
    const elector = new LeaderElector({
      lock: this.lock,
      leaseDurationMs: this.options.leaseDurationMs ?? 3000,
      renewDeadlineMs: this.options.renewDeadlineMs ?? 2500,
      retryPeriodMs: this.options.retryPeriodMs ?? 400,
      releaseOnCancel: true,
      onError: () => {},
      callbacks: {
        onStartedLeading: (signal) => {
          this.options.onLeaseEvent?.({ at: Date.now(), candidate: this.identity, kind: "acquired" });
          this.controllerDone = this.lead(signal);
          return this.controllerDone;
        },
        onStoppedLeading: () => {},
      },
    });
    this.elector = elector;
    void elector.run().then(() => {
      if (this.stopped) return;
      this.restarts++;
      this.campaign();
    });
  }

  /** While `signal` lives: a controller over a queue named for this term, fed by both informers. */
  private async lead(signal: AbortSignal): Promise<void> {
    const name = `staticsites-${this.identity}-${++this.term}`;
    const queue = new RateLimitingQueue<string>({
      name,
      metricsProvider: this.metricsProvider,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(10, 2000),
    });
    const ctx: ReplicaContext = {
      identity: this.identity,
      sites: new Lister(this.sites.getIndexer()),
      children: new Lister(this.children.getIndexer()),
      events: this.events,
    };
    const controller = new Controller({
      name,
      queue,
      workers: this.options.workers ?? 2,
      onError: () => {},
      reconcile: (key, s) => this.timed(key, () => this.options.reconcile(key, s, ctx)),
    });
    const toOwner = (obj: unknown) => {
      const child = unwrapTombstone(obj as MetaObject) as MetaObject | undefined;
      const owner = child ? getControllerOf(child) : undefined;
      if (owner?.kind === "StaticSite") queue.add(joinKey(child?.metadata?.namespace, owner.name));
    };
    const a = this.sites.addEventHandler(enqueueHandler(queue));
    const b = this.children.addEventHandler({
      onAdd: toOwner,
      onUpdate: (_old, obj) => toOwner(obj),
      onDelete: toOwner,
    });
    this.leading = true;
    try {
      await controller.run(signal);
    } finally {
      this.leading = false;
      this.sites.removeEventHandler(a);
      this.children.removeEventHandler(b);
    }
  }

  private async timed(key: string, run: () => Promise<void>): Promise<void> {
    const startedAt = Date.now();
    let error: string | undefined;
    try {
      await run();
    } catch (err) {
      error = (err as Error).message;
      throw err;
    } finally {
      this.options.reconciles?.push({ identity: this.identity, key, startedAt, endedAt: Date.now(), error });
    }
  }

  /** This replica's queue metrics, summed over its leadership terms (one queue per term). */
  metrics(): { depth: number; retries: number; reconciles: number; latencyMsSum: number } {
    const total = { depth: 0, retries: 0, reconciles: 0, latencyMsSum: 0 };
    for (const name of this.metricsProvider.names()) {
      const q = this.metricsProvider.snapshot(name);
      if (!q) continue;
      total.depth += q.depth;
      total.retries += q.retries;
      total.reconciles += q.workDuration.count;
      total.latencyMsSum += q.workDuration.sum * 1000;
    }
    return total;
  }

  /** Graceful shutdown: stop leading, release the Lease, stop the informers. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running?.abort();
    await this.elector?.stop();
    await this.controllerDone;
    await this.factory.stop();
  }

  /** `kill -9`: nothing more reaches the API through the lock, the Lease is left to expire. */
  async crash(): Promise<void> {
    this.options.onLeaseEvent?.({ at: Date.now(), candidate: this.identity, kind: "crashed" });
    this.stopped = true;
    this.lock.dead = true;
    await this.stop();
  }
}

/** Pairs of reconciles of the same key by two different replicas that overlapped in time. */
export function overlappingReconciles(
  records: readonly ReconcileRecord[],
): Array<[ReconcileRecord, ReconcileRecord]> {
  return records.flatMap((a) =>
    records
      .filter(
        (b) =>
          a.identity < b.identity && a.key === b.key && a.startedAt < b.endedAt && b.startedAt < a.endedAt,
      )
      .map((b): [ReconcileRecord, ReconcileRecord] => [a, b]),
  );
}
