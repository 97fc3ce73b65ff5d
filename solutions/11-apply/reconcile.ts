/**
 * LAB 11 (solution). The ConfigSet reconcile with server-side apply: every child is built as this controller
 * wants it, with only the fields it owns, and sent as one apply. No GET before a write, no resourceVersion, no
 * create/update split: the API server creates a missing child, merges the fields into an existing one, removes
 * the fields this manager owned and no longer sends, and stores nothing when nothing differs.
 */
import { type CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from "@kubernetes/client-node";
import {
  isNotFound,
  type Lister,
  setControllerReference,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";
import { CONFIGSET_LABEL, type ConfigSet, WORKBOOK_API_VERSION } from "kube-controller-workbook/workbook";

/** The field manager this controller writes as: `managedFields` names it as the owner of what it sets. */
export const FIELD_MANAGER = "configset-controller";

/** What a reconcile reads from and writes to. */
export interface ReconcileContext {
  /** Writes go to the API server. */
  core: CoreV1Api;
  /** The ConfigSet informer's cache. */
  configSets: Lister<ConfigSet>;
  /** The cache of ConfigMaps labelled `workbook.dev/configset`. */
  children: Lister<V1ConfigMap>;
}

const applyPatch = setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply);

/** The child `<set>-<i>` as this controller wants it: the fields it owns, and nothing else. */
function desiredChild(cs: ConfigSet, i: number): V1ConfigMap {
  const setName = cs.metadata.name ?? "";
  const child: V1ConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `${setName}-${i}`,
      namespace: cs.metadata.namespace,
      labels: { [CONFIGSET_LABEL]: setName },
    },
    data: { ...cs.spec.data },
  };
  setControllerReference({ ...cs, apiVersion: WORKBOOK_API_VERSION, kind: "ConfigSet" }, child);
  return child;
}

/**
 * One server-side apply of the desired child. `force`: this controller owns these fields by design, so a value
 * another manager forced into one of them is taken back instead of ending in 409 Conflict on every reconcile.
 */
async function applyChild(ctx: ReconcileContext, child: V1ConfigMap): Promise<void> {
  await ctx.core.patchNamespacedConfigMap(
    {
      namespace: child.metadata?.namespace ?? "",
      name: child.metadata?.name ?? "",
      body: child,
      fieldManager: FIELD_MANAGER,
      force: true,
    },
    applyPatch,
  );
}

/** Brings the children of the ConfigSet named by `key` (`namespace/name`) in line with its spec. */
export async function reconcileConfigSet(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cs = ctx.configSets.get(namespace, name);
  // Gone (or going): the garbage collector removes children through their ownerReferences.
  if (!cs || cs.metadata.deletionTimestamp) return;
  for (let i = 0; i < cs.spec.replicas; i++) await applyChild(ctx, desiredChild(cs, i));
  // Children past spec.replicas go (a 404: someone else already deleted it).
  for (const cm of ctx.children.namespace(namespace).list({ [CONFIGSET_LABEL]: name })) {
    const childName = cm.metadata?.name ?? "";
    const index = Number(childName.slice(name.length + 1));
    if (!childName.startsWith(`${name}-`) || !(index >= cs.spec.replicas)) continue;
    try {
      await ctx.core.deleteNamespacedConfigMap({ namespace, name: childName });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
