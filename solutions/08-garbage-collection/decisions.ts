/**
 * The decisions of a garbage collector for ConfigSets (the built-in collector is switched off for this lab):
 * what to do with a ConfigSet being deleted (foreground, orphan) and with a child whose owner may be gone
 * (background). Each function is called again whenever something it depends on changes, so each may do one step
 * and return; throw to be retried with backoff.
 */
import {
  type CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1OwnerReference,
} from "@kubernetes/client-node";
import {
  FOREGROUND_FINALIZER,
  hasFinalizer,
  isBeingDeleted,
  isNotFound,
  ORPHAN_FINALIZER,
} from "kube-controller-workbook";
import type { ConfigSet, CustomResourceClient } from "kube-controller-workbook/workbook";

/** What the decisions may use: the cache of children, and clients to read and write. */
export interface CollectorDeps {
  namespace: string;
  core: CoreV1Api;
  configSets: CustomResourceClient<ConfigSet>;
  /** The cached ConfigMaps of the namespace that carry an ownerReference with this uid. */
  childrenOf(uid: string): V1ConfigMap[];
}

const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

/** Removes `finalizer` from the ConfigSet, guarded by the resourceVersion it was read at. */
async function dropFinalizer(deps: CollectorDeps, owner: ConfigSet, finalizer: string): Promise<void> {
  const finalizers = (owner.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  await deps.configSets.patch(deps.namespace, owner.metadata.name!, {
    metadata: { finalizers, resourceVersion: owner.metadata.resourceVersion },
  });
}

/** The child's reference to `uid`, if any. */
function refTo(child: V1ConfigMap, uid: string): V1OwnerReference | undefined {
  return child.metadata?.ownerReferences?.find((ref) => ref.uid === uid);
}

/** Foreground: delete the children, and let the owner go once no blocking child is left. */
async function foreground(deps: CollectorDeps, owner: ConfigSet): Promise<void> {
  const uid = owner.metadata.uid!;
  const children = deps.childrenOf(uid);
  for (const child of children) {
    if (child.metadata?.deletionTimestamp) continue;
    try {
      await deps.core.deleteNamespacedConfigMap({
        name: child.metadata!.name!,
        namespace: deps.namespace,
        body: { preconditions: { uid: child.metadata!.uid! } },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  const blocking = children.filter((c) => refTo(c, uid)?.blockOwnerDeletion === true);
  // Deleted children leave the cache with a watch event, which queues the owner again.
  if (blocking.length === 0) await dropFinalizer(deps, owner, FOREGROUND_FINALIZER);
}

/** Orphan: strip the owner's reference from every child, then let the owner go. */
async function orphan(deps: CollectorDeps, owner: ConfigSet): Promise<void> {
  const uid = owner.metadata.uid!;
  for (const child of deps.childrenOf(uid)) {
    const ownerReferences = (child.metadata?.ownerReferences ?? []).filter((ref) => ref.uid !== uid);
    await deps.core.patchNamespacedConfigMap(
      {
        name: child.metadata!.name!,
        namespace: deps.namespace,
        body: { metadata: { ownerReferences, resourceVersion: child.metadata!.resourceVersion } },
      },
      mergePatch,
    );
  }
  await dropFinalizer(deps, owner, ORPHAN_FINALIZER);
}

/** Called for every ConfigSet in the cache: only those being deleted with a policy finalizer need work. */
export async function reconcileOwner(deps: CollectorDeps, owner: ConfigSet): Promise<void> {
  if (!isBeingDeleted(owner)) return;
  if (hasFinalizer(owner, ORPHAN_FINALIZER)) await orphan(deps, owner);
  else if (hasFinalizer(owner, FOREGROUND_FINALIZER)) await foreground(deps, owner);
}

/** True when the ConfigSet the reference names exists with the reference's uid (a live GET, not the cache). */
async function ownerExists(deps: CollectorDeps, ref: V1OwnerReference): Promise<boolean> {
  try {
    const owner = await deps.configSets.get(deps.namespace, ref.name);
    return owner.metadata.uid === ref.uid;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Background: a child none of whose ConfigSet owners exists any more is deleted. */
export async function reconcileChild(deps: CollectorDeps, cachedChild: V1ConfigMap): Promise<void> {
  const child = await currentChild(deps, cachedChild);
  if (!child) return;
  const refs = (child.metadata?.ownerReferences ?? []).filter((ref) => ref.kind === "ConfigSet");
  if (refs.length === 0 || child.metadata?.deletionTimestamp) return;
  for (const ref of refs) if (await ownerExists(deps, ref)) return;
  try {
    await deps.core.deleteNamespacedConfigMap({
      name: child.metadata!.name!,
      namespace: deps.namespace,
      body: { preconditions: { uid: child.metadata!.uid! } },
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * The child as it is now (a live GET, as kube's collector re-reads a dependent before it deletes it), or
 * undefined when it is gone or a namesake replaced it: the cached copy may still carry a reference that the
 * orphan step has just removed.
 */
async function currentChild(deps: CollectorDeps, cached: V1ConfigMap): Promise<V1ConfigMap | undefined> {
  try {
    const live = await deps.core.readNamespacedConfigMap({
      name: cached.metadata!.name!,
      namespace: deps.namespace,
    });
    return live.metadata?.uid === cached.metadata?.uid ? live : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
