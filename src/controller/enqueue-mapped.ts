/**
 * Wakes other objects' reconciles from one object's events: controller-runtime's
 * `handler.EnqueueRequestsFromMapFunc(mapFn)`, used with `Watches(&corev1.Secret{}, ...)` to watch a resource
 * the controller does not own. The map function turns the event's object into the keys to reconcile (every
 * StaticSite that references a changed Secret, say); it runs on the informer's handler loop, so it should read
 * the cache (an index, see `listByField`), never call the API server.
 */
import type { MetaObject } from "../apimachinery/object.js";
import { unwrapTombstone } from "../cache/tombstone.js";
import type { EnqueueHandler, KeyAdder } from "./enqueue-handler.js";

/** Object to the `namespace/name` keys of what must be reconciled (controller-runtime's `handler.MapFunc`). */
export type MapFunc<T extends MetaObject = MetaObject> = (obj: T) => string[];

/**
 * Builds handlers that add the keys `mapFn` returns for every notified object. Like controller-runtime: an update
 * maps the old and the new object and adds the union (a reference that moved wakes both sides), a delete maps the
 * last known state (unwrapped from a tombstone), and keys are deduplicated per event (the queue deduplicates the
 * rest). A map function that throws enqueues nothing for that event and is reported to `onError` (default: a line
 * on stderr); it never throws into the informer.
 */
export function enqueueRequestsFromMapFunc<T extends MetaObject = MetaObject>(
  queue: KeyAdder,
  mapFn: MapFunc<T>,
  onError: (obj: unknown, error: Error) => void = (_obj, e) =>
    process.stderr.write(`enqueueRequestsFromMapFunc: map function failed: ${e.message}\n`),
): EnqueueHandler {
  const keysOf = (obj: unknown, into: Set<string>) => {
    const last = unwrapTombstone(obj as T);
    if (!last || typeof last !== "object") return;
    try {
      for (const key of mapFn(last as T)) into.add(key);
    } catch (e) {
      onError(obj, e instanceof Error ? e : new Error(String(e)));
    }
  };
  const enqueue = (...objs: unknown[]) => {
    const keys = new Set<string>();
    for (const obj of objs) keysOf(obj, keys);
    for (const key of keys) queue.add(key);
  };
  return {
    onAdd: (obj) => enqueue(obj),
    onUpdate: (oldObj, newObj) => enqueue(oldObj, newObj),
    onDelete: (obj) => enqueue(obj),
  };
}
