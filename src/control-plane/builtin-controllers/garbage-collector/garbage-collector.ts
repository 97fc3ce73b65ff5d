/**
 * The garbage collector of the embedded control plane, written with the workbook's own machinery (informers,
 * rate-limited queues, controller workers) the way kube-controller-manager's is written with client-go
 * (`pkg/controller/garbagecollector/garbagecollector.go`).
 *
 * - The {@link GraphBuilder} watches every deletable resource found by discovery (re-discovered every
 *   `discoveryResyncMs`, and soon after a CustomResourceDefinition changes) and queues nodes.
 * - attemptToDelete workers decide about one node (see {@link GarbageCollector.attemptToDeleteItem}):
 *   background deletion of dependents whose owners are all gone, foreground deletion (the owner keeps the
 *   `foregroundDeletion` finalizer until its blocking dependents are gone), dangling references.
 * - attemptToOrphan workers handle owners deleted with the `orphan` finalizer: strip the owner's reference
 *   from each dependent, then remove the finalizer.
 *
 * Namespace rules (§6.7): a namespaced owner is looked up in the *dependent's* namespace, so a reference to
 * an owner in another namespace is dangling; a cluster-scoped dependent of a namespaced owner is invalid and
 * left alone (not deleted, not retried).
 *
 * Invariants: every write is conditional (DELETE with a uid precondition, PATCH with the resourceVersion just
 * read), so a decision made on stale data fails with 409 and is retried with fresh data; an object is deleted
 * only after a GET proved each of its owners absent or waiting for it.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import {
  type ErrorHandler,
  guardErrorHandler,
  type Runnable,
  RunOnce,
} from "../../../apimachinery/lifecycle.js";
import type { MetaObject } from "../../../apimachinery/object.js";
import { whenAborted } from "../../../apimachinery/wait/until-aborted.js";
import { type Clock, realClock } from "../../../clock/clock.js";
import { Controller } from "../../../controller/controller.js";
import { EventRecorder } from "../../../controller/event-recorder.js";
import { Result } from "../../../controller/result.js";
import { hasFinalizer, isBeingDeleted } from "../../../meta/finalizers.js";
import { DynamicClient, discoverResources, ResourceMapper } from "../discovery.js";
import {
  ObjectAccess,
  type ObjectAddress,
  type PropagationPolicy,
  UnknownKindError,
} from "../object-access.js";
import { describeIdentity, type GraphNode } from "./graph.js";
import { FOREGROUND_FINALIZER, GraphBuilder, ORPHAN_FINALIZER } from "./graph-builder.js";

/** Options of a {@link GarbageCollector}. */
export interface GarbageCollectorOptions {
  kubeConfig: KubeConfig;
  /** attemptToDelete workers (kube-controller-manager's `ConcurrentGCSyncs`, default 20). */
  workers?: number;
  /** Period of re-discovery (default 30 s, as kube-controller-manager). */
  discoveryResyncMs?: number;
  /** Resources never watched, as `plural` or `plural.group` (default: events). */
  ignoredResources?: readonly string[];
  clock?: Clock;
  /**
   * Failures the collector survives (default: one line on stderr): its own as component `garbage-collector`,
   * its workers' as `controller garbage-collector-attempt-to-*`, its monitors' as `informer`/`reflector`.
   */
  onError?: ErrorHandler;
}

/** Thrown for a cluster-scoped dependent that names a namespaced owner: the item is abandoned. */
class InvalidOwnerReferenceError extends Error {}

type Classified = { solid: string[]; dangling: string[]; waiting: string[] };

function addressOf(node: GraphNode): ObjectAddress {
  const { apiVersion, kind, namespace, name } = node.identity;
  return { apiVersion, kind, namespace, name };
}

/** kube-controller-manager's garbage collector, for the embedded control plane (or any cluster without one). */
export class GarbageCollector implements Runnable {
  readonly builder: GraphBuilder;
  private readonly client: DynamicClient;
  private readonly access: ObjectAccess;
  private mapper = new ResourceMapper([]);
  private readonly deleter: Controller;
  private readonly orphaner: Controller;
  private readonly clock: Clock;
  private readonly events: EventRecorder;
  private readonly onError: ErrorHandler;
  private readonly lifecycle = new RunOnce("garbage-collector");
  private readonly stopSignal = new AbortController();
  private loop: Promise<void> | undefined;
  private ready: Promise<void> | undefined;
  private rediscoverSoon: (() => void) | undefined;

  constructor(private readonly options: GarbageCollectorOptions) {
    this.clock = options.clock ?? realClock;
    const onError = guardErrorHandler(options.onError);
    // Once stopping, failures of in-flight work are noise: drop them.
    this.onError = (err, context) => {
      if (!this.stopSignal.signal.aborted) onError(err, context);
    };
    this.client = DynamicClient.forConfig(options.kubeConfig);
    this.events = new EventRecorder({
      api: options.kubeConfig.makeApiClient(CoreV1Api),
      component: "garbage-collector-controller",
      clock: this.clock,
      onError: this.onError,
    });
    this.access = new ObjectAccess(this.client, () => this.mapper);
    const hasSynced = [() => this.builder.hasSynced()];
    this.deleter = new Controller({
      name: "garbage-collector-attempt-to-delete",
      workers: options.workers ?? 20,
      clock: this.clock,
      hasSynced,
      reconcile: (uid) => this.attemptToDeleteItem(uid),
      onError: this.onError,
    });
    this.orphaner = new Controller({
      name: "garbage-collector-attempt-to-orphan",
      clock: this.clock,
      hasSynced,
      reconcile: (uid) => this.attemptToOrphanItem(uid),
      onError: this.onError,
    });
    this.builder = new GraphBuilder({
      kubeConfig: options.kubeConfig,
      clock: this.clock,
      ignoredResources: options.ignoredResources,
      onError: this.onError,
      sink: {
        attemptToDelete: (node) => this.deleter.enqueue(node.identity.uid),
        attemptToOrphan: (node) => this.orphaner.enqueue(node.identity.uid),
      },
      onCustomResourceDefinitionChange: () => this.rediscoverSoon?.(),
    });
  }

  /**
   * The collector's two work queues with their workers, for notebooks and tests to read: `attemptToDelete` and
   * `attemptToOrphan` (kube-controller-manager's queues of the same names). Each is a {@link Controller}: its
   * `queue` holds uids waiting for a decision, its `stats` count decisions by outcome.
   */
  get workers(): { readonly attemptToDelete: Controller; readonly attemptToOrphan: Controller } {
    return { attemptToDelete: this.deleter, attemptToOrphan: this.orphaner };
  }

  /**
   * {@link run} in the background (once; later calls return the same promise): resolves once the first
   * discovery is done and the monitors and workers are started, rejects if that first discovery fails.
   */
  start(): Promise<void> {
    if (!this.lifecycle.used) {
      let started!: () => void;
      let failed!: (err: unknown) => void;
      this.ready = new Promise<void>((resolve, reject) => {
        started = resolve;
        failed = reject;
      });
      this.runWith(undefined, started).catch(failed);
    }
    return this.ready ?? Promise.resolve();
  }

  /**
   * Runs until `signal` aborts or {@link stop}: discovers resources, starts the monitors, the workers and the
   * re-discovery loop; then stops them all. Settles once everything has stopped; rejects if the first
   * discovery fails. Runs once (the workbook's lifecycle contract, `src/apimachinery/lifecycle.ts`).
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.runWith(signal);
  }

  private runWith(signal: AbortSignal | undefined, onStarted?: () => void): Promise<void> {
    return this.lifecycle.run(signal, async (until) => {
      try {
        if (until.aborted) return;
        await this.resync();
        this.deleter.start();
        this.orphaner.start();
        this.loop = this.discoveryLoop(this.stopSignal.signal);
        onStarted?.();
        await whenAborted(until);
      } finally {
        await this.teardown();
      }
    });
  }

  /** Stops workers, monitors and the discovery loop, and waits for them. Idempotent; safe before `run`. */
  async stop(): Promise<void> {
    const neverRan = !this.lifecycle.used;
    this.stopSignal.abort();
    await this.lifecycle.stop();
    if (neverRan) await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.stopSignal.abort();
    await this.loop;
    await Promise.all([this.deleter.stop(), this.orphaner.stop()]);
    await this.builder.stop();
    await this.client.close();
  }

  private reportError(err: unknown, operation: string): void {
    this.onError(err, { component: "garbage-collector", operation });
  }

  private async resync(): Promise<void> {
    const resources = await discoverResources(this.client);
    this.mapper = new ResourceMapper(resources);
    await this.builder.syncMonitors(resources);
  }

  /** Re-discovers every `discoveryResyncMs`, and 200 ms after a CRD changed. */
  private async discoveryLoop(signal: AbortSignal): Promise<void> {
    const period = this.options.discoveryResyncMs ?? 30_000;
    while (!signal.aborted) {
      const wake = new AbortController();
      const onStop = () => wake.abort();
      signal.addEventListener("abort", onStop, { once: true });
      this.rediscoverSoon = () => {
        const timer = this.clock.setTimer(200, () => wake.abort());
        wake.signal.addEventListener("abort", () => timer.stop(), { once: true });
      };
      await this.clock.sleep(period, wake.signal);
      signal.removeEventListener("abort", onStop);
      if (signal.aborted) return;
      try {
        await this.resync();
      } catch (err) {
        this.reportError(err, "discovery");
      }
    }
  }

  /**
   * Decides about one node (client-go's `attemptToDeleteItem`):
   * 1. being deleted without waiting for dependents: nothing to do; a kind discovery does not know (yet):
   *    look again in a second (kube retries a REST-mapping error);
   * 2. GET it; absent (or another uid under that name): a virtual delete event cleans the graph;
   * 3. waiting for its dependents (foreground): remove `foregroundDeletion` once no blocking dependent remains;
   * 4. no ownerReferences: nothing to do;
   * 5. classify each owner (dangling / waiting for its dependents / solid) and act: any solid owner -> patch
   *    away the other references; waiting owners and dependents of its own -> delete in the foreground;
   *    otherwise delete with the policy its own finalizers ask for (default background).
   */
  async attemptToDeleteItem(uid: string): Promise<Result | undefined> {
    const node = this.builder.graph.get(uid);
    if (!node) return;
    if (node.beingDeleted && !node.deletingDependents) return;
    const resource = this.access.resourceFor(node.identity.apiVersion, node.identity.kind);
    if (!resource) {
      // As kube's restMappingError: probably a CRD discovery has not caught up with, never proof of absence
      // (concluding "absent" here would let the dependents of a live owner be collected).
      this.rediscoverSoon?.();
      return Result.requeueAfter(1_000);
    }
    if (resource.namespaced && !node.identity.namespace) return; // owner scope unknown: invalid reference
    const latest = await this.access.get(addressOf(node));
    if (!latest || latest.metadata?.uid !== uid) {
      this.builder.virtualDelete(node);
      return;
    }
    if (node.deletingDependents) {
      await this.processDeletingDependents(node, latest);
      return;
    }
    const refs = latest.metadata?.ownerReferences ?? [];
    if (refs.length === 0) return;
    let classified: Classified;
    try {
      classified = await this.classifyReferences(node, latest);
    } catch (err) {
      if (err instanceof InvalidOwnerReferenceError) {
        this.reportError(err, `abandoning ${describeIdentity(node.identity)}`);
        return;
      }
      if (err instanceof UnknownKindError) {
        // Probably a CRD discovery has not caught up with yet: re-discover, look again in a second.
        this.rediscoverSoon?.();
        return Result.requeueAfter(1_000);
      }
      throw err;
    }
    const { solid, dangling, waiting } = classified;
    if (solid.length > 0) {
      const drop = new Set([...dangling, ...waiting]);
      if (drop.size === 0) return;
      await this.access.patchMetadata(addressOf(node), {
        resourceVersion: latest.metadata?.resourceVersion,
        ownerReferences: refs.filter((r) => !drop.has(r.uid)),
      });
      return;
    }
    if (waiting.length > 0 && node.dependents.size > 0) {
      // Crude cycle guard (as client-go): if a dependent also waits for its dependents, stop blocking owners.
      if ([...node.dependents].some((d) => d.deletingDependents)) {
        const unblocked = refs.map((r) =>
          waiting.includes(r.uid) ? { ...r, blockOwnerDeletion: false } : r,
        );
        await this.access.patchMetadata(addressOf(node), {
          resourceVersion: latest.metadata?.resourceVersion,
          ownerReferences: unblocked,
        });
      }
      await this.access.delete(addressOf(node), "Foreground", uid);
      return;
    }
    const policy: PropagationPolicy = hasFinalizer(latest, ORPHAN_FINALIZER)
      ? "Orphan"
      : hasFinalizer(latest, FOREGROUND_FINALIZER)
        ? "Foreground"
        : "Background";
    await this.access.delete(addressOf(node), policy, uid);
  }

  /** Foreground: drop the owner's `foregroundDeletion` finalizer once no dependent blocks it any more. */
  private async processDeletingDependents(node: GraphNode, latest: MetaObject): Promise<void> {
    const blocking = this.builder.graph.blockingDependents(node);
    if (blocking.length === 0) {
      if (!hasFinalizer(latest, FOREGROUND_FINALIZER)) return;
      await this.access.patchMetadata(addressOf(node), {
        resourceVersion: latest.metadata?.resourceVersion,
        finalizers: (latest.metadata?.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER),
      });
      return;
    }
    for (const dependent of blocking)
      if (!dependent.deletingDependents) this.deleter.enqueue(dependent.identity.uid);
  }

  /** client-go's `classifyReferences`: each owner is dangling, waiting for its dependents' deletion, or solid. */
  private async classifyReferences(node: GraphNode, latest: MetaObject): Promise<Classified> {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    const namespace = node.identity.namespace;
    for (const ref of latest.metadata?.ownerReferences ?? []) {
      const resource = this.access.resourceFor(ref.apiVersion, ref.kind);
      if (!resource) throw new UnknownKindError(ref.apiVersion, ref.kind);
      if (resource.namespaced && !namespace) {
        throw new InvalidOwnerReferenceError(
          `cluster-scoped ${node.identity.kind} ${node.identity.name} names a namespaced owner ${ref.kind} ${ref.name}`,
        );
      }
      const ownerNamespace = resource.namespaced ? namespace : "";
      const absentKey = `${ownerNamespace}/${ref.uid}`;
      if (this.builder.absentOwners.has(absentKey)) {
        out.dangling.push(ref.uid);
        continue;
      }
      // A namespaced owner is looked up in the dependent's namespace: one in another namespace is dangling.
      const owner = await this.access.get({
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        namespace: ownerNamespace,
        name: ref.name,
      });
      if (!owner || owner.metadata?.uid !== ref.uid) {
        this.builder.absentOwners.add(absentKey);
        out.dangling.push(ref.uid);
        const seen = this.builder.graph.get(ref.uid);
        if (seen && !seen.virtual && resource.namespaced && seen.identity.namespace !== namespace) {
          const { apiVersion, kind, name, uid } = node.identity;
          void this.events.event(
            { apiVersion, kind, metadata: { name, namespace, uid } },
            "Warning",
            "OwnerRefInvalidNamespace",
            `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace "${namespace}"`,
          );
        }
      } else if (isBeingDeleted(owner) && hasFinalizer(owner, FOREGROUND_FINALIZER)) {
        out.waiting.push(ref.uid);
      } else {
        out.solid.push(ref.uid);
      }
    }
    return out;
  }

  /**
   * client-go's `attemptToOrphanWorker`: for an owner deleted with the `orphan` finalizer, remove its
   * reference from every dependent, then remove the finalizer (which lets the owner go).
   */
  async attemptToOrphanItem(uid: string): Promise<void> {
    const node = this.builder.graph.get(uid);
    if (!node) return;
    const owner = await this.access.get(addressOf(node));
    if (
      !owner ||
      owner.metadata?.uid !== uid ||
      !isBeingDeleted(owner) ||
      !hasFinalizer(owner, ORPHAN_FINALIZER)
    )
      return;
    for (const dependent of [...node.dependents]) {
      const latest = await this.access.get(addressOf(dependent));
      const refs = latest?.metadata?.ownerReferences ?? [];
      if (!latest || latest.metadata?.uid !== dependent.identity.uid || !refs.some((r) => r.uid === uid))
        continue;
      await this.access.patchMetadata(addressOf(dependent), {
        resourceVersion: latest.metadata?.resourceVersion,
        ownerReferences: refs.filter((r) => r.uid !== uid),
      });
    }
    await this.access.patchMetadata(addressOf(node), {
      resourceVersion: owner.metadata?.resourceVersion,
      finalizers: (owner.metadata?.finalizers ?? []).filter((f) => f !== ORPHAN_FINALIZER),
    });
  }
}
