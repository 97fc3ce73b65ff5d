/**
 * LAB 05 (solution). The level-triggered reconcile of one ConfigSet: read the desired state (the ConfigSet) and
 * the actual state (its labelled ConfigMaps) from the caches, and fix the difference. Mirrors what the
 * ReplicaSet controller does for Pods (adopt orphans that match, create the missing, delete the extra).
 */
import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";
import {
  getControllerOf,
  isAlreadyExists,
  isNotFound,
  type Lister,
  setControllerReference,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";
import { CONFIGSET_LABEL, type ConfigSet, WORKBOOK_API_VERSION } from "kube-controller-workbook/workbook";

/** What a reconcile reads from and writes to. */
export interface ReconcileContext {
  /** Writes go to the API server. */
  core: CoreV1Api;
  /** The ConfigSet informer's cache. */
  configSets: Lister<ConfigSet>;
  /** The cache of ConfigMaps labelled `workbook.dev/configset`. */
  children: Lister<V1ConfigMap>;
}

function sameData(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const canonical = (d: Record<string, string> | undefined) => JSON.stringify(Object.entries(d ?? {}).sort());
  return canonical(a) === canonical(b);
}

function created(cm: V1ConfigMap): string {
  const t = cm.metadata?.creationTimestamp as unknown;
  return t instanceof Date ? t.toISOString() : String(t ?? "");
}

/** Brings the children of the ConfigSet named by `key` (`namespace/name`) in line with its spec. */
export async function reconcileConfigSet(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cs = ctx.configSets.get(namespace, name);
  // Gone (or going): the garbage collector removes children through their ownerReferences.
  if (!cs || cs.metadata.deletionTimestamp) return;
  const owner = { ...cs, apiVersion: WORKBOOK_API_VERSION, kind: "ConfigSet" };
  const want = cs.spec.replicas;
  const data = cs.spec.data ?? {};

  // Ours: labelled for this ConfigSet, not being deleted, and either orphans or controlled by this very object.
  const ours = ctx.children
    .namespace(namespace)
    .list({ [CONFIGSET_LABEL]: name })
    .filter((cm) => !cm.metadata?.deletionTimestamp)
    .filter((cm) => {
      const ref = getControllerOf(cm);
      return !ref || ref.uid === cs.metadata.uid;
    })
    .sort(
      (a, b) =>
        created(a).localeCompare(created(b)) ||
        (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
    );
  const keep = ours.slice(0, want);
  const extra = ours.slice(want);

  for (const cm of extra) {
    try {
      await ctx.core.deleteNamespacedConfigMap({
        name: cm.metadata?.name ?? "",
        namespace,
        body: { preconditions: { uid: cm.metadata?.uid } },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  for (const cm of keep) {
    const adopted = getControllerOf(cm)?.uid === cs.metadata.uid;
    if (adopted && sameData(cm.data, data)) continue;
    const next: V1ConfigMap = { ...cm, metadata: { ...cm.metadata }, data: { ...data } };
    if (!adopted) setControllerReference(owner, next);
    // Carries the cached resourceVersion: a 409 means the cache was behind; the retry reads it again.
    await ctx.core.replaceNamespacedConfigMap({ name: cm.metadata?.name ?? "", namespace, body: next });
  }

  // Deterministic names for new children: a create that the cache does not show yet answers AlreadyExists.
  const taken = new Set(
    ctx.children
      .namespace(namespace)
      .list()
      .map((cm) => cm.metadata?.name ?? ""),
  );
  let missing = want - keep.length;
  for (let i = 0; missing > 0; i++) {
    const childName = `${name}-${i}`;
    if (taken.has(childName)) continue;
    const body: V1ConfigMap = {
      metadata: { name: childName, namespace, labels: { [CONFIGSET_LABEL]: name } },
      data: { ...data },
    };
    setControllerReference(owner, body);
    try {
      await ctx.core.createNamespacedConfigMap({ namespace, body });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    missing--;
  }
}
