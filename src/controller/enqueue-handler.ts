/**
 * Turns informer notifications into queue keys: the event handler of client-go's sample-controller
 * (`enqueueFoo`) and controller-runtime's `handler.EnqueueRequestForObject`. Handlers only compute
 * `namespace/name` and add it; the reconcile reads the current state from the cache, so it does not matter
 * whether the trigger was an add, an update or a delete (level-triggered).
 *
 * Accepts any object with `metadata`, and deletion tombstones (`DeletedFinalStateUnknown`), whose key is used
 * as is: the key is the cache's own {@link deletionHandlingMetaNamespaceKeyFunc}, so queue and cache agree.
 */
import { joinKey } from "../apimachinery/keys.js";
import type { MetaObject } from "../apimachinery/object.js";
import { deletionHandlingMetaNamespaceKeyFunc, unwrapTombstone } from "../cache/tombstone.js";
import { getControllerOf } from "../meta/owner-references.js";

/** Something keys can be added to (a workqueue, or a Controller's `queue`). */
export interface KeyAdder {
  add(key: string): void;
}

/** The three callbacks an informer calls (client-go's `ResourceEventHandlerFuncs`). */
export interface EnqueueHandler {
  onAdd(obj: unknown): void;
  onUpdate(oldObj: unknown, newObj: unknown): void;
  onDelete(obj: unknown): void;
}

/** Options of {@link enqueueHandler}. */
export interface EnqueueHandlerOptions {
  /** Only objects for which this returns true are enqueued (a predicate). For updates it sees the new object. */
  filter?: (obj: MetaObject) => boolean;
  /** Called for objects that have no key (no metadata.name); default: a line on stderr. Never throws into the informer. */
  onInvalid?: (obj: unknown, error: Error) => void;
}

/** Builds handlers that add the `namespace/name` key of every notified object to `queue`. */
export function enqueueHandler(queue: KeyAdder, options: EnqueueHandlerOptions = {}): EnqueueHandler {
  const onInvalid =
    options.onInvalid ??
    ((_obj, e) => process.stderr.write(`enqueueHandler: ignoring object: ${e.message}\n`));
  const enqueue = (obj: unknown) => {
    let key: string;
    try {
      key = deletionHandlingMetaNamespaceKeyFunc(obj as MetaObject);
    } catch (e) {
      onInvalid(obj, e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const inner = unwrapTombstone(obj);
    if (options.filter && inner && typeof inner === "object" && !options.filter(inner as MetaObject)) return;
    queue.add(key);
  };
  return {
    onAdd: enqueue,
    onUpdate: (_old, obj) => enqueue(obj),
    onDelete: enqueue,
  };
}

/** The owner type {@link enqueueRequestForOwner} looks for in a dependent's controller reference. */
export interface OwnerType {
  /** The owner's kind, as written in `ownerReferences[].kind` (`ConfigSet`, `Deployment`). */
  kind: string;
  /** The owner's API group (`""` for the core group); left out, any group matches. */
  group?: string;
  /** False for a cluster-scoped owner, whose key is its bare name (default true: the dependent's namespace). */
  namespaced?: boolean;
}

/**
 * Builds handlers that enqueue the key of an object's controlling owner instead of the object itself:
 * controller-runtime's `handler.EnqueueRequestForOwner(scheme, mapper, ownerType, handler.OnlyControllerOwner())`,
 * and the `handleObject` of client-go's sample-controller. A child's event (an add, an update, a delete, a
 * tombstone) wakes the parent's reconcile. The owner is found through {@link getControllerOf} (the
 * ownerReference with `controller: true`), never through labels: an object that merely carries a label naming a
 * parent, or whose controller is another kind, enqueues nothing. An update enqueues the owners of the old and
 * the new object (both, when the controller reference changed), as controller-runtime does.
 */
export function enqueueRequestForOwner(queue: KeyAdder, ownerType: OwnerType): EnqueueHandler {
  const enqueue = (obj: unknown) => {
    const child = unwrapTombstone(obj as MetaObject) as MetaObject | undefined;
    const owner = child?.metadata ? getControllerOf(child) : undefined;
    if (!owner || owner.kind !== ownerType.kind || !owner.name) return;
    if (ownerType.group !== undefined) {
      const apiVersion = owner.apiVersion ?? "";
      const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
      if (group !== ownerType.group) return;
    }
    queue.add(ownerType.namespaced === false ? owner.name : joinKey(child?.metadata?.namespace, owner.name));
  };
  return {
    onAdd: enqueue,
    onUpdate: (oldObj, newObj) => {
      enqueue(oldObj);
      enqueue(newObj);
    },
    onDelete: enqueue,
  };
}
