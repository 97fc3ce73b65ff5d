import type { KubeObject } from "../../../apimachinery/object.js";
import type { MvccStore } from "../storage/mvcc-store.js";
import type { WatchCache } from "../storage/watch-cache.js";
import { type CrdServingHooks, servedResourcesOf } from "./crd.js";
import type { ResourceRegistry } from "./resource-registry.js";
import { storageId } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";

/**
 * What apiextensions-apiserver's controllers (establishing, finalizer, crdHandler) do when a CRD changes, done at
 * once, driven by the CRD strategy's hooks (see `CrdStrategy`): serve the kinds of a stored
 * CRD (its "Established" moment), re-serve them when it is updated, and on delete stop serving them and remove
 * every instance.
 *
 * Caveat: the real "customresourcecleanup" finalizer deletes instances through the API and waits for their
 * own finalizers; the embedded server removes them directly (each still produces a DELETED watch event),
 * finalizers or not, then closes the kind's watches.
 */
export class CrdLifecycle implements CrdServingHooks {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly store: MvccStore,
    private readonly watchCache: WatchCache,
  ) {}

  /** Serves (or re-serves) the kinds a stored CRD defines. */
  sync(crd: KubeObject): void {
    const name = crd.metadata!.name!;
    // A CRD never shadows a built-in kind (their storage would be shared and purged with the CRD).
    const builtin = new Set(
      this.registry
        .all()
        .filter((r) => r.crd === undefined)
        .map((r) => storageId(r.type)),
    );
    const next = servedResourcesOf(crd).filter((r) => !builtin.has(storageId(r.type)));
    const before = this.registry.replaceWhere((r) => r.crd === name, next);
    for (const b of before) if (!next.some((n) => storageId(n.type) === storageId(b.type))) this.purge(b);
  }

  /** Stops serving a CRD's kinds and deletes all their objects. */
  drop(name: string): void {
    const removed = this.registry.removeWhere((r) => r.crd === name);
    const seen = new Set<string>();
    for (const r of removed) {
      if (seen.has(storageId(r.type))) continue;
      seen.add(storageId(r.type));
      this.purge(r);
    }
  }

  private purge(r: ServedResource): void {
    const id = storageId(r.type);
    const rs = this.store.resource(id);
    for (const key of [...rs.sortedKeys()]) {
      const v = rs.current(key);
      if (v) this.store.remove(id, key, v.object().metadata?.namespace);
    }
    this.watchCache.closeResource(id);
  }
}
