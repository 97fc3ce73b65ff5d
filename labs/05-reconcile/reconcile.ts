/**
 * LAB 05 (skeleton). The level-triggered reconcile of one ConfigSet. It gets a key, never an event: read the
 * desired state (the ConfigSet) and the actual state (its labelled ConfigMaps) from the caches in `ctx`, and
 * fix the difference. Notebook 05, section 3, builds a smaller one.
 */
import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";
import type { Lister } from "kube-controller-workbook";
import { splitMetaNamespaceKey } from "kube-controller-workbook";
import type { ConfigSet } from "kube-controller-workbook/workbook";

/** What a reconcile reads from and writes to. */
export interface ReconcileContext {
  /** Writes go to the API server. */
  core: CoreV1Api;
  /** The ConfigSet informer's cache. */
  configSets: Lister<ConfigSet>;
  /** The cache of ConfigMaps labelled `workbook.dev/configset`. */
  children: Lister<V1ConfigMap>;
}

/** Brings the children of the ConfigSet named by `key` (`namespace/name`) in line with its spec. */
export async function reconcileConfigSet(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  // TODO 1: read the ConfigSet from ctx.configSets. Not there (or being deleted): nothing to do, return.
  // TODO 2: list its children from ctx.children by the label CONFIGSET_LABEL=<name>. Count as "ours" the ones
  //         that have no controller ownerReference (orphans to adopt) or whose controller is this ConfigSet
  //         (compare uids: getControllerOf from the package).
  // TODO 3: more than spec.replicas: delete the extra ones (a 404 means someone else already did).
  // TODO 4: for the ones you keep: set the controller ownerReference (setControllerReference) if missing and
  //         make data equal spec.data; write only when something changed. Never delete and recreate them.
  // TODO 5: fewer than spec.replicas: create the missing ones, labelled, owned, with spec.data. Pick names so
  //         that a create repeated on a stale cache cannot make a duplicate (409 AlreadyExists = already done).
  void ctx;
  void namespace;
  void name;
}
