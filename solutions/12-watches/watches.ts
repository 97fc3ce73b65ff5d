/**
 * LAB 12 (solution). Which events wake the site controller: a site's own events, filtered so that status writes
 * (the controller's and a peer's) do not, while a spec edit, a re-pointed annotation and the start of a deletion
 * do; and every event of a Secret, mapped to the sites that name it, found through a field index.
 */
import {
  type Controller,
  enqueueHandler,
  enqueueRequestsFromMapFunc,
  type Indexer,
  indexField,
  listByField,
  type MapFunc,
  predicate,
  type ReadonlyIndexer,
  type SharedIndexInformer,
  withPredicates,
} from "kube-controller-workbook";
import type { StaticSite } from "kube-controller-workbook/workbook";
import { type Secret, tlsSecretOf } from "./reconcile.js";

/** The field index of the sites by the Secret they name. */
export const TLS_SECRET_FIELD = "tlsSecret";

/** Registers the field index {@link TLS_SECRET_FIELD}: every site under the Secret it names (none: not indexed). */
export function indexSitesBySecret(sites: SharedIndexInformer<StaticSite> | Indexer<StaticSite>): void {
  indexField(sites, TLS_SECRET_FIELD, (site) => {
    const secret = tlsSecretOf(site);
    return secret ? [secret] : [];
  });
}

/** The map function: a Secret to the keys of the sites of its namespace that name it, one index lookup. */
export function sitesReferencing(sites: ReadonlyIndexer<StaticSite>): MapFunc<Secret> {
  return (secret) =>
    listByField(sites, TLS_SECRET_FIELD, secret.metadata?.name ?? "", secret.metadata?.namespace ?? "").map(
      (site) => `${site.metadata.namespace}/${site.metadata.name}`,
    );
}

/**
 * A site's events wake its own key when its generation moved (a spec edit, the start of a deletion) or its
 * annotations changed (the Secret reference lives in one). Status writes move neither, and are hidden.
 */
export function watchSites(sites: SharedIndexInformer<StaticSite>, queue: Controller["queue"]): void {
  sites.addEventHandler(
    withPredicates(
      enqueueHandler(queue),
      predicate.or(predicate.generationChanged, predicate.annotationChanged),
    ),
  );
}

/**
 * Every event of a Secret (added, changed, deleted) wakes the sites that name it. No filter: a Secret's data
 * change moves no generation.
 */
export function watchSecrets(
  secrets: SharedIndexInformer<Secret>,
  sites: SharedIndexInformer<StaticSite>,
  queue: Controller["queue"],
): void {
  secrets.addEventHandler(enqueueRequestsFromMapFunc(queue, sitesReferencing(sites.getIndexer())));
}
