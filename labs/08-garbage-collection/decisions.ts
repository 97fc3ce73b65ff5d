/**
 * The decisions of a garbage collector for ConfigSets (the built-in collector is switched off for this lab):
 * what to do with a ConfigSet being deleted (foreground, orphan) and with a child whose owner may be gone
 * (background). Each function is called again whenever something it depends on changes, so each may do one step
 * and return; throw to be retried with backoff.
 */
import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";
import type { ConfigSet, CustomResourceClient } from "kube-controller-workbook/workbook";

/** What the decisions may use: the cache of children, and clients to read and write. */
export interface CollectorDeps {
  namespace: string;
  core: CoreV1Api;
  configSets: CustomResourceClient<ConfigSet>;
  /** The cached ConfigMaps of the namespace that carry an ownerReference with this uid. */
  childrenOf(uid: string): V1ConfigMap[];
}

/**
 * Called for every ConfigSet in the cache (live ones too: they need nothing).
 *
 * TODO, for a ConfigSet being deleted (metadata.deletionTimestamp set):
 * - with the finalizer `foregroundDeletion` (FOREGROUND_FINALIZER): delete each of its children that is not
 *   being deleted yet; once no child whose reference to it has `blockOwnerDeletion: true` is left, remove
 *   `foregroundDeletion` from the ConfigSet's finalizers (the API server then deletes it);
 * - with the finalizer `orphan` (ORPHAN_FINALIZER): remove the reference to this ConfigSet (by uid) from each
 *   child, keeping its other references, then remove `orphan` from the ConfigSet's finalizers.
 * Write with the resourceVersion you read (a merge patch of metadata), so a stale decision fails with 409.
 */
export async function reconcileOwner(deps: CollectorDeps, owner: ConfigSet): Promise<void> {
  void deps;
  void owner;
}

/**
 * Called for every cached ConfigMap (most have no owner: nothing to do).
 *
 * TODO, background deletion: if the child references ConfigSets and none of them exists any more, delete the
 * child. "Exists" means: a GET of the ConfigSet by name (in the child's namespace) finds one with the uid of the
 * reference; a 404, or another uid under that name (the owner was deleted and recreated), means it is gone.
 * Decide from the child as the server has it now (GET it too, as kube's collector re-reads a dependent before
 * deleting it): the cached copy may still carry a reference that an orphan step has just removed.
 */
export async function reconcileChild(deps: CollectorDeps, child: V1ConfigMap): Promise<void> {
  void deps;
  void child;
}
