/**
 * LAB 06 (given, the same in labs/ and solutions/). The children half of the ConfigSet reconcile, as lab 05
 * solved it: adopt labelled orphans, delete extras, fix data, create the missing with deterministic names. It
 * throws when a write fails, so the status half can report the failure. Also counts what exists.
 */
import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";
import {
  getControllerOf,
  isAlreadyExists,
  isNotFound,
  type Lister,
  setControllerReference,
} from "kube-controller-workbook";
import { CONFIGSET_LABEL, type ConfigSet, WORKBOOK_API_VERSION } from "kube-controller-workbook/workbook";

/** What the children half reads from and writes to. */
export interface ChildrenContext {
  core: CoreV1Api;
  /** The cache of ConfigMaps labelled `workbook.dev/configset`. */
  children: Lister<V1ConfigMap>;
}

function sameData(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const canonical = (d: Record<string, string> | undefined) => JSON.stringify(Object.entries(d ?? {}).sort());
  return canonical(a) === canonical(b);
}

/** The children the cache shows for `cs`: labelled, not being deleted, orphans or controlled by `cs`. */
function ours(ctx: ChildrenContext, cs: ConfigSet): V1ConfigMap[] {
  return ctx.children
    .namespace(cs.metadata.namespace ?? "")
    .list({ [CONFIGSET_LABEL]: cs.metadata.name ?? "" })
    .filter((cm) => !cm.metadata?.deletionTimestamp)
    .filter((cm) => {
      const ref = getControllerOf(cm);
      return !ref || ref.uid === cs.metadata.uid;
    })
    .sort((a, b) => (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""));
}

/**
 * What the cache shows now: `replicas` = children that exist (owned by `cs`), `readyReplicas` = those that
 * also carry `spec.data`. May lag behind writes made a moment ago.
 */
export function countChildren(
  ctx: ChildrenContext,
  cs: ConfigSet,
): { replicas: number; readyReplicas: number } {
  const owned = ours(ctx, cs).filter((cm) => getControllerOf(cm)?.uid === cs.metadata.uid);
  return {
    replicas: owned.length,
    readyReplicas: owned.filter((cm) => sameData(cm.data, cs.spec.data)).length,
  };
}

/** Brings the children of `cs` in line with its spec; throws the first failed write. */
export async function reconcileChildren(ctx: ChildrenContext, cs: ConfigSet): Promise<void> {
  const namespace = cs.metadata.namespace ?? "";
  const name = cs.metadata.name ?? "";
  const owner = { ...cs, apiVersion: WORKBOOK_API_VERSION, kind: "ConfigSet" };
  const data = cs.spec.data ?? {};
  const mine = ours(ctx, cs);
  const keep = mine.slice(0, cs.spec.replicas);
  for (const cm of mine.slice(cs.spec.replicas)) {
    await ctx.core
      .deleteNamespacedConfigMap({ name: cm.metadata?.name ?? "", namespace })
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
  }
  for (const cm of keep) {
    const adopted = getControllerOf(cm)?.uid === cs.metadata.uid;
    if (adopted && sameData(cm.data, data)) continue;
    const next: V1ConfigMap = { ...cm, metadata: { ...cm.metadata }, data: { ...data } };
    if (!adopted) setControllerReference(owner, next);
    await ctx.core.replaceNamespacedConfigMap({ name: cm.metadata?.name ?? "", namespace, body: next });
  }
  const taken = new Set(
    ctx.children
      .namespace(namespace)
      .list()
      .map((cm) => cm.metadata?.name ?? ""),
  );
  let missing = cs.spec.replicas - keep.length;
  for (let i = 0; missing > 0; i++) {
    const childName = `${name}-${i}`;
    if (taken.has(childName)) continue;
    const body: V1ConfigMap = {
      metadata: { name: childName, namespace, labels: { [CONFIGSET_LABEL]: name } },
      data: { ...data },
    };
    setControllerReference(owner, body);
    await ctx.core.createNamespacedConfigMap({ namespace, body }).catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
    missing--;
  }
}
