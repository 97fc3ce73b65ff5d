/**
 * LAB 12 (skeleton). Which events wake the site controller. `controller.ts` (given) calls the four functions
 * below while it wires the informers; as shipped they register nothing, so nothing wakes a reconcile. The TODOs
 * say what each one must do (notebook 14, sections 1 to 4).
 */
import type {
  Controller,
  Indexer,
  MapFunc,
  ReadonlyIndexer,
  SharedIndexInformer,
} from "kube-controller-workbook";
import type { StaticSite } from "kube-controller-workbook/workbook";
import type { Secret } from "./reconcile.js";

/** The field index of the sites by the Secret they name. */
export const TLS_SECRET_FIELD = "tlsSecret";

/**
 * TODO 1: register the field index TLS_SECRET_FIELD on `sites`: every site is filed under the Secret its
 *         annotation names (`tlsSecretOf` in reconcile.ts); a site that names none is not filed.
 */
export function indexSitesBySecret(_sites: SharedIndexInformer<StaticSite> | Indexer<StaticSite>): void {}

/**
 * TODO 2: the map function: a Secret to the keys (`namespace/name`) of the sites that name it. Only sites of
 *         the Secret's own namespace can use it. Ask the index of TODO 1, not every site in the cache.
 */
export function sitesReferencing(_sites: ReadonlyIndexer<StaticSite>): MapFunc<Secret> {
  return () => [];
}

/**
 * TODO 3: register a handler on `sites` that adds a site's key to `queue` when something the reconcile reads
 *         changed: its spec, the Secret its annotation names, the start of its deletion. A status write (the
 *         controller's own, or another controller's) must not wake it.
 */
export function watchSites(_sites: SharedIndexInformer<StaticSite>, _queue: Controller["queue"]): void {}

/**
 * TODO 4: register a handler on `secrets` that adds to `queue` the keys of the sites that name a Secret when
 *         the Secret is created, changed or deleted (the map function of TODO 2, on `sites`' cache).
 */
export function watchSecrets(
  _secrets: SharedIndexInformer<Secret>,
  _sites: SharedIndexInformer<StaticSite>,
  _queue: Controller["queue"],
): void {}
