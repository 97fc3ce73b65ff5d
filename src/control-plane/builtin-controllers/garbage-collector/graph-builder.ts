/**
 * The garbage collector's graph builder (kube-controller-manager `garbagecollector/graph_builder.go`): one
 * metadata-only informer ("monitor") per deletable resource, and a single-threaded event processor that keeps
 * the {@link OwnerGraph} in step with what the informers see and queues the nodes that need a decision.
 *
 * What each event does (`processGraphChanges`):
 * - add/update of an unknown uid: insert a node, link it to its owners (creating virtual owners, which are
 *   queued for verification), then look at deletion transitions;
 * - add/update of a known uid: a virtual node becomes observed; ownerReference changes are applied (an owner
 *   that waits for its dependents and lost one, or lost a blocking one, is requeued); then transitions;
 * - transitions: deletionTimestamp + `orphan` finalizer -> attemptToOrphan; deletionTimestamp +
 *   `foregroundDeletion` -> mark `deletingDependents`, queue every dependent and the node for attemptToDelete;
 * - delete: remove the node, remember the uid as absent, queue every dependent, and requeue owners that wait
 *   for their dependents (foreground).
 * JavaScript runs one handler at a time, so each event is applied atomically: the single goroutine of
 * client-go's `runProcessGraphChanges`.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { isNotFound } from "../../../apimachinery/errors.js";
import type { ErrorHandler } from "../../../apimachinery/lifecycle.js";
import type { MetaObject, OwnerReference } from "../../../apimachinery/object.js";
import { SharedIndexInformer } from "../../../cache/shared-index-informer.js";
import { type DeletedFinalStateUnknown, unwrapTombstone } from "../../../cache/tombstone.js";
import { ListWatch } from "../../../client/list-watch.js";
import { descriptorKey } from "../../../client/resource-descriptor.js";
import type { Clock } from "../../../clock/clock.js";
import {
  FOREGROUND_FINALIZER,
  hasFinalizer,
  isBeingDeleted,
  ORPHAN_FINALIZER,
} from "../../../meta/finalizers.js";
import { type DiscoveredResource, supports } from "../discovery.js";
import { AbsentOwnerCache } from "./absent-owner-cache.js";
import { type GraphNode, type ObjectIdentity, OwnerGraph } from "./graph.js";

export { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "../../../meta/finalizers.js";

/** Resources the collector never watches by default (kube-controller-manager ignores events). */
export const DEFAULT_IGNORED_RESOURCES: readonly string[] = ["events", "events.events.k8s.io"];

/** Strips an object down to what the graph needs (client-go's GC uses metadata-only informers). */
function metadataOnly(obj: MetaObject): MetaObject {
  const m = (obj.metadata ?? {}) as NonNullable<MetaObject["metadata"]>;
  const view: MetaObject = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      ownerReferences: m.ownerReferences,
      finalizers: m.finalizers,
      deletionTimestamp: m.deletionTimestamp,
    },
  };
  return view;
}

/** Where the graph builder sends nodes that need a decision. */
export interface GraphSink {
  attemptToDelete(node: GraphNode): void;
  attemptToOrphan(node: GraphNode): void;
}

/** Options of a {@link GraphBuilder}. */
export interface GraphBuilderOptions {
  kubeConfig: KubeConfig;
  sink: GraphSink;
  clock?: Clock;
  /** `plural` or `plural.group` of resources never watched (default {@link DEFAULT_IGNORED_RESOURCES}). */
  ignoredResources?: readonly string[];
  /** Given to every monitor's informer (see `SharedIndexInformerOptions.onError`). */
  onError?: ErrorHandler;
  /** Called when a CustomResourceDefinition is added, changed or deleted: the served resources may change. */
  onCustomResourceDefinitionChange?: () => void;
}

interface Monitor {
  informer: SharedIndexInformer<MetaObject>;
  listWatch: ListWatch<MetaObject>;
}

function identityOf(obj: MetaObject): ObjectIdentity {
  return {
    apiVersion: obj.apiVersion ?? "",
    kind: obj.kind ?? "",
    name: obj.metadata?.name ?? "",
    namespace: obj.metadata?.namespace ?? "",
    uid: obj.metadata?.uid ?? "",
  };
}

/** Builds and maintains the dependency graph from one informer per deletable resource. */
export class GraphBuilder {
  readonly graph = new OwnerGraph();
  readonly absentOwners = new AbsentOwnerCache();
  private readonly monitors = new Map<string, Monitor>();
  private readonly ignored: Set<string>;
  private stopped = false;

  constructor(private readonly options: GraphBuilderOptions) {
    this.ignored = new Set(options.ignoredResources ?? DEFAULT_IGNORED_RESOURCES);
  }

  /**
   * Makes the set of monitors match `resources` (those supporting list, watch and delete, minus ignored
   * ones): starts informers for new resources and stops those of resources no longer served.
   */
  async syncMonitors(resources: readonly DiscoveredResource[]): Promise<void> {
    if (this.stopped) return;
    const wanted = new Map<string, DiscoveredResource>();
    for (const r of resources) {
      const name = r.group ? `${r.plural}.${r.group}` : r.plural;
      if (this.ignored.has(name) || !supports(r, "list", "watch", "delete")) continue;
      wanted.set(descriptorKey(r), r);
    }
    for (const [key, monitor] of this.monitors) {
      if (wanted.has(key)) continue;
      this.monitors.delete(key);
      await monitor.informer.stop();
      await monitor.listWatch.close();
    }
    for (const [key, resource] of wanted) {
      if (this.monitors.has(key)) continue;
      this.monitors.set(key, this.startMonitor(key, resource));
    }
  }

  /** True once every monitor has listed (client-go's `GraphBuilder.IsSynced`). */
  hasSynced(): boolean {
    for (const m of this.monitors.values()) if (!m.informer.hasSynced()) return false;
    return true;
  }

  /** The resources currently watched, as `descriptorKey`s. */
  monitoredResources(): string[] {
    return [...this.monitors.keys()].sort();
  }

  /** Stops every monitor. Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    const monitors = [...this.monitors.values()];
    this.monitors.clear();
    await Promise.all(monitors.map((m) => m.informer.stop()));
    await Promise.all(monitors.map((m) => m.listWatch.close()));
  }

  /**
   * The collector found `node` absent (NotFound, or another uid under that name): apply a delete event for
   * it, exactly as if its informer had reported the deletion (client-go's virtual delete event).
   */
  virtualDelete(node: GraphNode): void {
    this.processDelete(node.identity.uid);
  }

  private startMonitor(key: string, resource: DiscoveredResource): Monitor {
    const listWatch = new ListWatch<MetaObject>(this.options.kubeConfig, resource);
    const informer = new SharedIndexInformer<MetaObject>(listWatch, {
      name: `garbage-collector ${key}`,
      clock: this.options.clock,
      onError: (err, context) => {
        // A 404 on a monitor's LIST or watch means the resource is no longer served (its CRD was deleted, or
        // a version dropped). kube-controller-manager's reflector logs it until the next re-discovery removes
        // the monitor; here that log would land in the learner's cell, so the monitor asks for the
        // re-discovery at once instead (which stops it) and reports nothing.
        if (isNotFound(err)) this.options.onCustomResourceDefinitionChange?.();
        else this.options.onError?.(err, context);
      },
    });
    informer.setTransform(metadataOnly);
    informer.addEventHandler({
      onAdd: (obj) => this.processUpsert(obj as MetaObject),
      onUpdate: (oldObj, newObj) => this.processUpsert(newObj as MetaObject, oldObj as MetaObject),
      onDelete: (obj) => {
        const last = unwrapTombstone(obj as MetaObject | DeletedFinalStateUnknown<MetaObject>);
        if (!last?.metadata?.uid) return;
        if (last.kind === "CustomResourceDefinition") this.options.onCustomResourceDefinitionChange?.();
        this.processDelete(last.metadata.uid);
      },
    });
    informer.start();
    return { informer, listWatch };
  }

  private processUpsert(obj: MetaObject, old?: MetaObject): void {
    const uid = obj.metadata?.uid;
    if (!uid) return;
    if (obj.kind === "CustomResourceDefinition") this.options.onCustomResourceDefinitionChange?.();
    const owners = obj.metadata?.ownerReferences ?? [];
    let node = this.graph.get(uid);
    if (!node) {
      node = {
        identity: identityOf(obj),
        owners,
        dependents: new Set(),
        beingDeleted: isBeingDeleted(obj),
        deletingDependents: false,
        virtual: false,
      };
      for (const virtualOwner of this.graph.insert(node)) this.options.sink.attemptToDelete(virtualOwner);
    } else {
      if (node.virtual) {
        node.virtual = false;
        node.identity = identityOf(obj);
      }
      this.applyOwnerChanges(node, owners);
      node.beingDeleted = isBeingDeleted(obj);
    }
    this.checkOwnerNamespaces(node);
    this.processTransitions(node, obj, old);
  }

  /**
   * An owner must live in the dependent's namespace (or be cluster-scoped). A reference to an owner observed in
   * another namespace, or from a cluster-scoped dependent to a namespaced owner, is invalid: queue the
   * dependent so the collector judges the reference (kube reports `OwnerRefInvalidNamespace`).
   */
  private checkOwnerNamespaces(node: GraphNode): void {
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      if (!owner || owner.virtual || !owner.identity.namespace) continue;
      if (owner.identity.namespace !== node.identity.namespace) {
        this.options.sink.attemptToDelete(node);
        return;
      }
    }
  }

  private applyOwnerChanges(node: GraphNode, owners: OwnerReference[]): void {
    const before = new Map(node.owners.map((o) => [o.uid, o]));
    const after = new Map(owners.map((o) => [o.uid, o]));
    const changed =
      owners.length !== node.owners.length ||
      owners.some((o) => {
        const b = before.get(o.uid);
        return !b || b.blockOwnerDeletion !== o.blockOwnerDeletion || b.controller !== o.controller;
      });
    if (!changed) return;
    // Owners waiting for their dependents must look again when a dependent stops blocking them.
    for (const [uid, ref] of before) {
      const now = after.get(uid);
      const unblocked = !now || (ref.blockOwnerDeletion === true && now.blockOwnerDeletion !== true);
      const owner = this.graph.get(uid);
      if (unblocked && owner?.deletingDependents) this.options.sink.attemptToDelete(owner);
    }
    for (const virtualOwner of this.graph.setOwners(node, owners))
      this.options.sink.attemptToDelete(virtualOwner);
  }

  private processTransitions(node: GraphNode, obj: MetaObject, old?: MetaObject): void {
    if (!isBeingDeleted(obj)) return;
    if (hasFinalizer(obj, ORPHAN_FINALIZER)) {
      this.options.sink.attemptToOrphan(node);
      return;
    }
    if (hasFinalizer(obj, FOREGROUND_FINALIZER)) {
      const newly = !node.deletingDependents || !old || !hasFinalizer(old, FOREGROUND_FINALIZER);
      node.deletingDependents = true;
      if (newly) for (const dependent of node.dependents) this.options.sink.attemptToDelete(dependent);
      this.options.sink.attemptToDelete(node);
    }
  }

  private processDelete(uid: string): void {
    const node = this.graph.get(uid);
    if (!node) return;
    this.graph.remove(node);
    this.absentOwners.add(`${node.identity.namespace}/${uid}`);
    for (const dependent of node.dependents) this.options.sink.attemptToDelete(dependent);
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      if (owner?.deletingDependents) this.options.sink.attemptToDelete(owner);
    }
  }
}
