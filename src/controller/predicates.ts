/**
 * Event filters: which informer notifications may wake a controller. controller-runtime's `pkg/predicate`
 * (`predicate.Predicate`, `GenerationChangedPredicate`, `LabelChangedPredicate`, `AnnotationChangedPredicate`,
 * `ResourceVersionChangedPredicate`, `NewPredicateFuncs`, `And`, `Or`, `Not`), and the way its sources apply
 * them (`builder.WithPredicates` on `For`, `Owns` and `Watches`): a predicate is asked before the handler turns
 * the event into keys, so a filtered event never reaches the queue.
 *
 * What filters do not do: they change nothing in the cache (every event still updates it), and they hide
 * everything they reject, including the periodic resync (an update whose old and new objects are the same), so a
 * filtered controller no longer heals from a status someone else overwrote. Import it as a namespace, as Go does:
 * `predicate.or(predicate.generationChanged, predicate.annotationChanged)`.
 *
 * The package has no generic events (controller-runtime's `GenericFunc`, for channel sources), so a predicate here
 * has three methods, not four.
 */
import type { MetaObject } from "../apimachinery/object.js";
import { parseLabelSelector } from "../apimachinery/selectors/label-selector.js";
import type { ResourceEventHandler } from "../cache/processor-listener.js";
import { type DeletedFinalStateUnknown, unwrapTombstone } from "../cache/tombstone.js";

/**
 * One decision per kind of event (controller-runtime's `predicate.Predicate` and `predicate.Funcs`). A method
 * that is left out lets its events through, as a nil func of `predicate.Funcs` does. `delete` gets the last
 * known state, unwrapped from a tombstone when the DELETED event was missed.
 */
export interface Predicate<T extends MetaObject = MetaObject> {
  create?(obj: T): boolean;
  update?(oldObj: T, newObj: T): boolean;
  delete?(obj: T): boolean;
}

const passes = {
  create: <T extends MetaObject>(p: Predicate<T>, obj: T) => (p.create ? p.create(obj) : true),
  update: <T extends MetaObject>(p: Predicate<T>, o: T, n: T) => (p.update ? p.update(o, n) : true),
  delete: <T extends MetaObject>(p: Predicate<T>, obj: T) => (p.delete ? p.delete(obj) : true),
};

/**
 * The same test on every event (controller-runtime's `predicate.NewPredicateFuncs`): the object of a create or
 * a delete, the new object of an update.
 */
export function newPredicateFuncs<T extends MetaObject = MetaObject>(
  filter: (obj: T) => boolean,
): Predicate<T> {
  return { create: filter, update: (_old, obj) => filter(obj), delete: filter };
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean => {
  const x = Object.entries(a ?? {});
  const y = b ?? {};
  return x.length === Object.keys(y).length && x.every(([k, v]) => y[k] === v);
};

/**
 * Lets an update through only when `metadata.generation` moved (controller-runtime's
 * `GenerationChangedPredicate`); creates and deletes pass. The API server moves the generation of a custom
 * resource on every change outside `metadata` and `status` (the spec), and when `deletionTimestamp` is first set
 * on an object that still has finalizers, so the start of a deletion passes too. A write to `/status`, a label,
 * an annotation, a finalizer or a resync does not move it, and is hidden. Built-in kinds differ (a Deployment's
 * generation also moves on some annotation writes): check the kind before relying on it.
 */
export const generationChanged: Predicate = {
  update: (oldObj, newObj) => oldObj.metadata?.generation !== newObj.metadata?.generation,
};

/** Lets an update through only when the labels changed (controller-runtime's `LabelChangedPredicate`). */
export const labelChanged: Predicate = {
  update: (oldObj, newObj) => !sameMap(oldObj.metadata?.labels, newObj.metadata?.labels),
};

/** Lets an update through only when the annotations changed (controller-runtime's `AnnotationChangedPredicate`). */
export const annotationChanged: Predicate = {
  update: (oldObj, newObj) => !sameMap(oldObj.metadata?.annotations, newObj.metadata?.annotations),
};

/**
 * Lets an update through only when the resourceVersion changed (controller-runtime's
 * `ResourceVersionChangedPredicate`): every real write passes, only resyncs are hidden.
 */
export const resourceVersionChanged: Predicate = {
  update: (oldObj, newObj) => oldObj.metadata?.resourceVersion !== newObj.metadata?.resourceVersion,
};

/**
 * Objects whose labels match `selector` (controller-runtime's `LabelSelectorPredicate`), judged on the object of
 * a create or delete and the new object of an update. Accepts a selector string (`app=web,tier!=db`).
 */
export function labelSelectorPredicate(selector: string): Predicate {
  const parsed = parseLabelSelector(selector);
  return newPredicateFuncs((obj) => parsed.matches(obj.metadata?.labels ?? {}));
}

/** Passes an event when every predicate passes it (controller-runtime's `predicate.And`); none passes all. */
export function and<T extends MetaObject = MetaObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => predicates.every((p) => passes.create(p, obj)),
    update: (o, n) => predicates.every((p) => passes.update(p, o, n)),
    delete: (obj) => predicates.every((p) => passes.delete(p, obj)),
  };
}

/** Passes an event when at least one predicate passes it (controller-runtime's `predicate.Or`); none passes none. */
export function or<T extends MetaObject = MetaObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (obj) => predicates.some((p) => passes.create(p, obj)),
    update: (o, n) => predicates.some((p) => passes.update(p, o, n)),
    delete: (obj) => predicates.some((p) => passes.delete(p, obj)),
  };
}

/** Passes exactly the events `predicate` rejects (controller-runtime's `predicate.Not`). */
export function not<T extends MetaObject = MetaObject>(predicate: Predicate<T>): Predicate<T> {
  return {
    create: (obj) => !passes.create(predicate, obj),
    update: (o, n) => !passes.update(predicate, o, n),
    delete: (obj) => !passes.delete(predicate, obj),
  };
}

/**
 * Wraps a handler so it only sees the events every predicate passes: what controller-runtime's source does with
 * `builder.WithPredicates(...)` on one `For`, `Owns` or `Watches`. Predicates are per registration: the same
 * informer may feed another handler, unfiltered. An update is judged once, on the pair (old, new), and either
 * reaches the handler as an update or not at all (compare client-go's {@link FilteringResourceEventHandler},
 * which judges each object alone and turns updates into adds and deletes).
 */
export function withPredicates<T extends MetaObject>(
  handler: ResourceEventHandler<T>,
  ...predicates: Predicate<T>[]
): ResourceEventHandler<T> {
  const all = and(...predicates);
  return {
    onAdd: (obj, isInInitialList) => {
      if (all.create!(obj)) return handler.onAdd?.(obj, isInInitialList);
    },
    onUpdate: (oldObj, newObj) => {
      if (all.update!(oldObj, newObj)) return handler.onUpdate?.(oldObj, newObj);
    },
    onDelete: (obj: T | DeletedFinalStateUnknown<T>) => {
      const last = unwrapTombstone(obj);
      if (last === undefined || all.delete!(last)) return handler.onDelete?.(obj);
    },
  };
}
