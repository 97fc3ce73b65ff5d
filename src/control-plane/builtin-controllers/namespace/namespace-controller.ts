/**
 * The namespace controller of the embedded control plane, written with the workbook's informer, queue and
 * controller runner the way kube-controller-manager's is written with client-go
 * (`pkg/controller/namespace/namespace_controller.go`, `deletion/namespaced_resources_deleter.go`).
 *
 * For a namespace being deleted (deletionTimestamp set, phase Terminating):
 * 1. discover every namespaced resource that can be listed and deleted;
 * 2. delete all of its objects in the namespace (deletecollection where supported, else one by one;
 *    background propagation, never orphaning);
 * 3. if anything remains (objects with finalizers, or deleted just now), requeue and look again later;
 * 4. once nothing remains, remove `kubernetes` from spec.finalizers through the `/finalize` subresource;
 * 5. with no finalizer left, the API server removes the namespace (a last DELETE with a uid precondition
 *    makes sure, as kube's controller does).
 *
 * Invariant: `kubernetes` is removed only after a pass that found no object left in the namespace.
 */
import { CoreV1Api, type KubeConfig, type V1Namespace } from "@kubernetes/client-node";
import { isNotFound } from "../../../apimachinery/errors.js";
import {
  type ErrorHandler,
  guardErrorHandler,
  type Runnable,
  RunOnce,
} from "../../../apimachinery/lifecycle.js";
import type { MetaObject } from "../../../apimachinery/object.js";
import { whenAborted } from "../../../apimachinery/wait/until-aborted.js";
import { SharedIndexInformer } from "../../../cache/shared-index-informer.js";
import { ListWatch } from "../../../client/list-watch.js";
import { BuiltinResources } from "../../../client/resource-descriptor.js";
import { type Clock, realClock } from "../../../clock/clock.js";
import { Controller } from "../../../controller/controller.js";
import { Result } from "../../../controller/result.js";
import { isBeingDeleted } from "../../../meta/finalizers.js";
import { DynamicClient, discoverResources, supports } from "../discovery.js";

/** The spec finalizer this controller owns (`v1.FinalizerKubernetes`). */
export const KUBERNETES_FINALIZER = "kubernetes";

/** Options of a {@link NamespaceController}. */
export interface NamespaceControllerOptions {
  kubeConfig: KubeConfig;
  /** Concurrent namespace syncs (kube-controller-manager's `ConcurrentNamespaceSyncs`, default 10). */
  workers?: number;
  /** How soon to look again while content remains (default 1 s). */
  recheckMs?: number;
  clock?: Clock;
  /** Failures it survives (default: one line on stderr), from its informer and its `controller namespace`. */
  onError?: ErrorHandler;
}

/** kube-controller-manager's namespace controller: empties Terminating namespaces, then finalizes them. */
export class NamespaceController implements Runnable {
  private readonly listWatch: ListWatch<MetaObject>;
  private readonly informer: SharedIndexInformer<MetaObject>;
  private readonly controller: Controller;
  private readonly client: DynamicClient;
  private readonly core: CoreV1Api;
  private readonly lifecycle = new RunOnce("namespace-controller");

  constructor(private readonly options: NamespaceControllerOptions) {
    const clock = options.clock ?? realClock;
    const onError = guardErrorHandler(options.onError);
    this.client = DynamicClient.forConfig(options.kubeConfig);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.listWatch = new ListWatch<MetaObject>(options.kubeConfig, BuiltinResources.namespaces);
    this.informer = new SharedIndexInformer<MetaObject>(this.listWatch, {
      name: "namespace-controller",
      clock,
      onError,
    });
    this.controller = new Controller({
      name: "namespace",
      workers: options.workers ?? 10,
      clock,
      hasSynced: [() => this.informer.hasSynced()],
      reconcile: (name) => this.syncNamespace(name),
      onError,
    });
    const enqueue = (obj: MetaObject) => {
      if (isBeingDeleted(obj) && obj.metadata?.name) this.controller.enqueue(obj.metadata.name);
    };
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj) });
  }

  /** {@link run} in the background: starts the informer and the workers; does nothing the second time. */
  start(): void {
    if (this.lifecycle.used) return;
    void this.run();
  }

  /**
   * Runs until `signal` aborts or {@link stop}: the informer and the workers; settles once everything has
   * stopped. Runs once (the workbook's lifecycle contract, `src/apimachinery/lifecycle.ts`).
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, async (until) => {
      try {
        if (until.aborted) return;
        this.informer.start();
        this.controller.start();
        await whenAborted(until);
      } finally {
        await this.teardown();
      }
    });
  }

  /** Stops workers and informer and waits for them. Idempotent; safe before `run`. */
  async stop(): Promise<void> {
    const neverRan = !this.lifecycle.used;
    await this.lifecycle.stop();
    if (neverRan) await this.teardown();
  }

  private async teardown(): Promise<void> {
    await this.controller.stop();
    await this.informer.stop();
    await this.listWatch.close();
    await this.client.close();
  }

  /** One pass over a namespace; requeues itself while content remains. */
  async syncNamespace(name: string): Promise<Result | undefined> {
    const cached = this.informer.getIndexer().getByKey(name);
    if (!cached || !isBeingDeleted(cached)) return undefined;
    const remaining = await this.deleteAllContent(name);
    if (remaining > 0) return Result.requeueAfter(this.options.recheckMs ?? 1_000);
    let ns: V1Namespace;
    try {
      ns = await this.core.readNamespace({ name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const finalizers = ns.spec?.finalizers ?? [];
    if (finalizers.includes(KUBERNETES_FINALIZER)) {
      const body: V1Namespace = {
        ...ns,
        spec: { ...ns.spec, finalizers: finalizers.filter((f) => f !== KUBERNETES_FINALIZER) },
      };
      ns = await this.core.replaceNamespaceFinalize({ name, body });
    }
    if ((ns.spec?.finalizers ?? []).length > 0 || (ns.metadata?.finalizers ?? []).length > 0)
      return undefined;
    try {
      await this.core.deleteNamespace({ name, body: { preconditions: { uid: ns.metadata?.uid } } });
    } catch (err) {
      if (!isNotFound(err)) throw err; // already gone: the /finalize write removed it
    }
    return undefined;
  }

  /** Deletes every object of every namespaced resource in `namespace`; returns how many still existed. */
  private async deleteAllContent(namespace: string): Promise<number> {
    const resources = (await discoverResources(this.client)).filter(
      (r) => r.namespaced && supports(r, "list", "delete"),
    );
    let remaining = 0;
    for (const r of resources) {
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      if (supports(r, "deletecollection")) await this.client.deleteCollection(r, namespace);
      const list = await this.client.list(apiVersion, r.kind, namespace);
      for (const item of list.items as MetaObject[]) {
        remaining++;
        if (isBeingDeleted(item)) continue;
        try {
          await this.client.delete(
            { apiVersion, kind: r.kind, metadata: { name: item.metadata?.name, namespace } },
            undefined,
            undefined,
            undefined,
            undefined,
            "Background",
          );
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }
    return remaining;
  }
}
