/**
 * One replica of the StaticSite operator, assembled from the package's pieces (each notebook's idea in one
 * place):
 * - shared informers for the parent (StaticSites) and its children (ConfigMaps labelled with their site), whose
 *   caches every reconcile reads (notebooks 02 and 03);
 * - a named rate-limited queue of keys, served by a Controller: children's events enqueue their owner's key
 *   (notebooks 04 and 08);
 * - the level-triggered reconcile of `reconcile.ts`, with owner references, a finalizer for the bucket, status
 *   conditions and Events (notebooks 05 to 08);
 * - leader election over a Lease: the caches stay warm on every replica, but only the leader runs the
 *   controller (notebook 09).
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import {
  BuiltinResources,
  Controller,
  EventRecorder,
  enqueueHandler,
  type FakeCloud,
  getControllerOf,
  InMemoryMetricsProvider,
  ItemExponentialFailureRateLimiter,
  joinKey,
  LeaderElector,
  LeaseLock,
  Lister,
  type MetaObject,
  RateLimitingQueue,
  type ResourceLock,
  SharedInformerFactory,
  STATIC_SITE_LABEL,
  type StaticSite,
  unwrapTombstone,
  WorkbookResources,
} from "kube-controller-workbook";
import { reconcileSite } from "./reconcile.js";

/** How to build one replica. Every replica of one operator shares `namespace`, `cloud` and `leaseName`. */
export interface OperatorOptions {
  kubeConfig: KubeConfig;
  /** The namespace the operator watches (and where its Lease lives). */
  namespace: string;
  /** This replica's unique identity (its pod name, in a real cluster). */
  identity: string;
  /** The external API the sites' buckets live in. */
  cloud: FakeCloud;
  /** Name of the Lease the replicas compete for (default `staticsite-operator`). */
  leaseName?: string;
  /** Leader election timing in ms (defaults 1000 / 800 / 200: short, for the workbook). */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Called after every reconcile with who ran it, on which key, and when: how graders see who acts. */
  onReconcile?: (record: ReconcileRecord) => void;
}

/** One reconcile, as the replica that ran it saw it. Times are ms since the epoch. */
export interface ReconcileRecord {
  identity: string;
  key: string;
  startedAt: number;
  endedAt: number;
  /** The error message when the reconcile failed (it is then retried with backoff). */
  error?: string;
}

/** The operator's own metrics: what you would alert on. */
export interface OperatorMetrics {
  /** Keys waiting in the queue right now (workqueue_depth). */
  queueDepth: number;
  /** Reconciles run so far, and how many failed. */
  reconciles: number;
  errors: number;
  /** Keys put back through the rate limiter (workqueue_retries_total). */
  retries: number;
  /** Reconcile durations in seconds: count, sum and max (workqueue_work_duration_seconds). */
  reconcileSeconds: { count: number; sum: number; max: number };
}

/** A running replica. `stop()` is a graceful shutdown (the lease is released); `crash()` is a kill -9. */
export interface OperatorReplica {
  readonly identity: string;
  /** Starts the informers, waits for their caches, then campaigns for the lease. */
  start(): Promise<void>;
  /** True while this replica holds the lease and runs the controller. */
  isLeader(): boolean;
  metrics(): OperatorMetrics;
  /** Graceful: stop reconciling, release the lease so the other replica takes over at once, stop informers. */
  stop(): Promise<void>;
  /** A crash: everything stops and nothing more reaches the API; the lease is NOT released, it must expire. */
  crash(): Promise<void>;
}

/** Builds one replica of the StaticSite operator. */
export function createOperator(options: OperatorOptions): OperatorReplica {
  return new SiteOperatorReplica(options);
}

/** A lock whose calls all fail once the process is "dead": a crashed replica cannot release its lease. */
class CrashableLock implements ResourceLock {
  dead = false;
  constructor(private readonly inner: ResourceLock) {}
  private alive(): void {
    if (this.dead) throw new Error(`${this.inner.identity()} has crashed`);
  }
  async get() {
    this.alive();
    return this.inner.get();
  }
  async create(record: Parameters<ResourceLock["create"]>[0]) {
    this.alive();
    return this.inner.create(record);
  }
  async update(record: Parameters<ResourceLock["update"]>[0]) {
    this.alive();
    return this.inner.update(record);
  }
  recordEvent(message: string): void {
    this.inner.recordEvent(message);
  }
  identity(): string {
    return this.inner.identity();
  }
  describe(): string {
    return this.inner.describe();
  }
}

class SiteOperatorReplica implements OperatorReplica {
  readonly identity: string;
  private readonly factory: SharedInformerFactory;
  private readonly metricsProvider = new InMemoryMetricsProvider();
  private readonly queueName: string;
  private readonly lock: CrashableLock;
  private readonly events: EventRecorder;
  private elector: LeaderElector | undefined;
  private controller: Controller | undefined;
  private leading = false;
  private reconciles = 0;
  private errors = 0;

  constructor(private readonly options: OperatorOptions) {
    this.identity = options.identity;
    this.queueName = `staticsites-${options.identity}`;
    this.factory = new SharedInformerFactory(options.kubeConfig, {
      namespace: options.namespace,
      onError: () => {}, // a stopped replica's watches end with errors nobody needs to read
    });
    this.lock = new CrashableLock(
      new LeaseLock(options.kubeConfig, {
        namespace: options.namespace,
        name: options.leaseName ?? "staticsite-operator",
        identity: options.identity,
      }),
    );
    this.events = new EventRecorder({
      api: options.kubeConfig.makeApiClient(CoreV1Api),
      component: "staticsite-operator",
      host: options.identity,
      onError: () => {},
    });
  }

  async start(): Promise<void> {
    this.factory.informerFor<StaticSite>(WorkbookResources.staticSites);
    this.factory.informerFor<V1ConfigMap>(BuiltinResources.configMaps, { labelSelector: STATIC_SITE_LABEL });
    this.factory.start();
    if (!(await this.factory.waitForCacheSync({ timeoutMs: 30_000 }))) {
      throw new Error(`${this.identity}: caches did not sync`);
    }
    this.elector = new LeaderElector({
      lock: this.lock,
      name: this.identity,
      leaseDurationMs: this.options.leaseDurationMs ?? 1000,
      renewDeadlineMs: this.options.renewDeadlineMs ?? 800,
      retryPeriodMs: this.options.retryPeriodMs ?? 200,
      releaseOnCancel: true,
      onError: () => {},
      callbacks: {
        onStartedLeading: (signal) => this.lead(signal),
        onStoppedLeading: () => {
          this.leading = false;
        },
      },
    });
    void this.elector.run();
  }

  /** Leadership: run the controller until the signal aborts; the handlers feed it only while we lead. */
  private async lead(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const sites = this.factory.informerFor<StaticSite>(WorkbookResources.staticSites);
    const children = this.factory.informerFor<V1ConfigMap>(BuiltinResources.configMaps, {
      labelSelector: STATIC_SITE_LABEL,
    });
    const queue = new RateLimitingQueue<string>({
      name: this.queueName,
      metricsProvider: this.metricsProvider,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(10, 2000),
    });
    const deps = {
      sites: new Lister<StaticSite>(sites.getIndexer()),
      children: new Lister<V1ConfigMap>(children.getIndexer()),
      kubeConfig: this.options.kubeConfig,
      cloud: this.options.cloud,
      events: this.events,
    };
    const controller = new Controller({
      name: this.queueName,
      queue,
      workers: 2,
      onError: () => {},
      reconcile: async (key, reconcileSignal) => {
        const startedAt = Date.now();
        let error: string | undefined;
        this.reconciles++;
        try {
          await reconcileSite(deps, key, reconcileSignal);
        } catch (err) {
          this.errors++;
          error = String((err as Error).message ?? err);
          throw err;
        } finally {
          this.options.onReconcile?.({ identity: this.identity, key, startedAt, endedAt: Date.now(), error });
        }
      },
    });
    this.controller = controller;
    const parentEvents = sites.addEventHandler(enqueueHandler(queue));
    const enqueueOwner = (obj: unknown) => {
      const child = unwrapTombstone(obj as MetaObject) as MetaObject | undefined;
      const owner = child && getControllerOf(child);
      // WRONG: the child's own key is queued; reconcileSite finds no StaticSite by that name and does nothing.
      if (owner?.kind === "StaticSite") queue.add(joinKey(child?.metadata?.namespace, child?.metadata?.name));
    };
    const childEvents = children.addEventHandler({
      onAdd: enqueueOwner,
      onUpdate: (_old, obj) => enqueueOwner(obj),
      onDelete: enqueueOwner,
    });
    this.leading = true;
    try {
      await controller.run(signal);
    } finally {
      this.leading = false;
      sites.removeEventHandler(parentEvents);
      children.removeEventHandler(childEvents);
    }
  }

  isLeader(): boolean {
    return this.leading;
  }

  metrics(): OperatorMetrics {
    const q = this.metricsProvider.snapshot(this.queueName);
    return {
      queueDepth: q?.depth ?? 0,
      reconciles: this.reconciles,
      errors: this.errors,
      retries: q?.retries ?? 0,
      reconcileSeconds: {
        count: q?.workDuration.count ?? 0,
        sum: q?.workDuration.sum ?? 0,
        max: q?.workDuration.max ?? 0,
      },
    };
  }

  async stop(): Promise<void> {
    await this.elector?.stop();
    await this.controller?.stop();
    await this.factory.stop();
  }

  async crash(): Promise<void> {
    this.lock.dead = true;
    await this.stop();
  }
}
