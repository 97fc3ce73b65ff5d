/**
 * LAB 11 (skeleton). The ConfigSet reconcile, written the get-modify-update way: for every child it reads the
 * ConfigMap from the API server, changes it, and writes the whole object back (a create when it is missing, an
 * update with the resourceVersion it read otherwise). It works, and it is what this lab replaces: write the
 * children with **server-side apply** instead (notebook 13, sections 4 to 7). The TODOs say where.
 */
import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";
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

/**
 * Makes the child `<set>-<i>` what the ConfigSet asks for, by get-modify-update.
 *
 * TODO 1: replace this function with one that builds the child as this controller wants it, and only that:
 *         apiVersion and kind, metadata (name, namespace, the label CONFIGSET_LABEL=<set>, the controller
 *         ownerReference: setControllerReference) and data = spec.data. No resourceVersion, no fields you do
 *         not mean to own: every field you send, you own.
 * TODO 2: send it as one server-side apply: a PATCH with Content-Type application/apply-patch+yaml
 *         (`setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply)` as the call's options) and
 *         fieldManager FIELD_MANAGER. No GET first: the server creates the child if it is missing. Decide what
 *         to do about a field another manager took from you (`force`).
 */
async function writeChild(ctx: ReconcileContext, cs: ConfigSet, i: number): Promise<void> {
  const namespace = cs.metadata.namespace ?? "";
  const setName = cs.metadata.name ?? "";
  const name = `${setName}-${i}`;
  const owner = { ...cs, apiVersion: WORKBOOK_API_VERSION, kind: "ConfigSet" };
  let current: V1ConfigMap;
  try {
    current = await ctx.core.readNamespacedConfigMap({ namespace, name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const body: V1ConfigMap = {
      metadata: { name, namespace, labels: { [CONFIGSET_LABEL]: setName } },
      data: { ...cs.spec.data },
    };
    setControllerReference(owner, body);
    await ctx.core.createNamespacedConfigMap({ namespace, body, fieldManager: FIELD_MANAGER });
    return;
  }
  current.metadata = {
    ...current.metadata,
    labels: { ...current.metadata?.labels, [CONFIGSET_LABEL]: setName },
  };
  current.metadata.ownerReferences = [];
  setControllerReference(owner, current);
  current.data = { ...cs.spec.data };
  // The resourceVersion read above: a 409 if anyone wrote since, and the key is retried.
  await ctx.core.replaceNamespacedConfigMap({ namespace, name, body: current, fieldManager: FIELD_MANAGER });
}

/** Brings the children of the ConfigSet named by `key` (`namespace/name`) in line with its spec. */
export async function reconcileConfigSet(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cs = ctx.configSets.get(namespace, name);
  // Gone (or going): the garbage collector removes children through their ownerReferences.
  if (!cs || cs.metadata.deletionTimestamp) return;
  for (let i = 0; i < cs.spec.replicas; i++) await writeChild(ctx, cs, i);
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
