import type { MetaObject } from "../apimachinery/object.js";
import type { ResourceEventHandler } from "./processor-listener.js";
import type { DeletedFinalStateUnknown } from "./tombstone.js";

/**
 * A handler that passes on only the objects a filter accepts: client-go's `cache.FilteringResourceEventHandler`.
 * The filter judges one object at a time, so an update is judged on both sides and becomes what it is *for the
 * filtered view*:
 * - old and new accepted: `onUpdate(old, new)`;
 * - only the new one accepted: `onAdd(new, false)` (the object entered the view);
 * - only the old one accepted: `onDelete(old)` (the object left the view);
 * - neither: nothing.
 *
 * `onDelete` hands the filter what the informer handed it, a tombstone included (client-go does the same; unwrap
 * it with `unwrapTombstone` if your filter reads fields). controller-runtime's predicates
 * (`src/controller/predicates.ts`) judge the pair instead and never turn an update into an add or a delete.
 */
export class FilteringResourceEventHandler<T extends MetaObject = MetaObject>
  implements ResourceEventHandler<T>
{
  constructor(
    /** client-go's `FilterFunc`. */
    readonly filterFunc: (obj: T | DeletedFinalStateUnknown<T>) => boolean,
    /** client-go's `Handler`: what the accepted events go to. */
    readonly handler: ResourceEventHandler<T>,
  ) {}

  onAdd(obj: T, isInInitialList: boolean): void | Promise<void> {
    if (this.filterFunc(obj)) return this.handler.onAdd?.(obj, isInInitialList);
  }

  onUpdate(oldObj: T, newObj: T): void | Promise<void> {
    const newer = this.filterFunc(newObj);
    const older = this.filterFunc(oldObj);
    if (newer && older) return this.handler.onUpdate?.(oldObj, newObj);
    if (newer) return this.handler.onAdd?.(newObj, false);
    if (older) return this.handler.onDelete?.(oldObj);
  }

  onDelete(obj: T | DeletedFinalStateUnknown<T>): void | Promise<void> {
    if (this.filterFunc(obj)) return this.handler.onDelete?.(obj);
  }
}
