/**
 * LAB 12 (given, complete). The TLS reconcile of a StaticSite: the site names a Secret in the annotation
 * `workbook.dev/tls-secret`; the reconcile keeps one child ConfigMap `<site>-tls` that records which Secret, at
 * which resourceVersion, the site serves with (a real operator would roll its pods there), and reports in the
 * site's status whether the Secret exists. It reads the site and the Secret from the caches, so it is only as
 * current as the events that wake it: which events those are is the lab (`watches.ts`).
 */
import {
  type CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Secret,
} from "@kubernetes/client-node";
import {
  type Lister,
  type MetaObject,
  type StatusCondition,
  setControllerReference,
  setStatusCondition,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";
import {
  type CustomResourceClient,
  STATIC_SITE_LABEL,
  type StaticSite,
  WORKBOOK_API_VERSION,
} from "kube-controller-workbook/workbook";

/** The annotation a site names its TLS Secret in (a Secret of the site's namespace). */
export const TLS_SECRET_ANNOTATION = "workbook.dev/tls-secret";

/** The field manager the child is applied as. */
export const FIELD_MANAGER = "site-tls-controller";

/** A Secret as the cache holds it. */
export type Secret = V1Secret & MetaObject;

/** What a reconcile reads from and writes to. */
export interface ReconcileContext {
  core: CoreV1Api;
  /** Status writes of the sites. */
  siteClient: CustomResourceClient<StaticSite>;
  /** The caches. */
  sites: Lister<StaticSite>;
  secrets: Lister<Secret>;
}

/** The Secret a site names, or `undefined` when it names none. */
export function tlsSecretOf(site: StaticSite): string | undefined {
  return site.metadata.annotations?.[TLS_SECRET_ANNOTATION] || undefined;
}

const applyPatch = setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply);

/** The child `<site>-tls`: the site's content and the Secret it serves with, at the version the cache holds. */
function desiredChild(site: StaticSite, secretName: string, secret: Secret | undefined): V1ConfigMap {
  const child: V1ConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `${site.metadata.name}-tls`,
      namespace: site.metadata.namespace,
      labels: { [STATIC_SITE_LABEL]: site.metadata.name ?? "" },
    },
    data: {
      content: site.spec.content,
      secret: secretName,
      secretVersion: secret?.metadata?.resourceVersion ?? "",
    },
  };
  setControllerReference({ ...site, apiVersion: WORKBOOK_API_VERSION, kind: "StaticSite" }, child);
  return child;
}

/** The Ready condition: True when the named Secret exists (or none is named), False with SecretMissing if not. */
function readyCondition(site: StaticSite, secretName: string, secret: Secret | undefined): StatusCondition {
  const observedGeneration = site.metadata.generation;
  if (!secretName) return { type: "Ready", status: "True", reason: "NoSecretReferenced", observedGeneration };
  if (!secret)
    return {
      type: "Ready",
      status: "False",
      reason: "SecretMissing",
      message: `Secret ${secretName} not found`,
      observedGeneration,
    };
  return { type: "Ready", status: "True", reason: "SecretFound", observedGeneration };
}

/** Brings the child of the site named by `key` (`namespace/name`) in line, and reports on it in the status. */
export async function reconcileSite(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const site = ctx.sites.get(namespace, name);
  // Gone (or going): the garbage collector removes the child through its ownerReference.
  if (!site || site.metadata.deletionTimestamp) return;
  const secretName = tlsSecretOf(site) ?? "";
  const secret = secretName ? ctx.secrets.get(namespace, secretName) : undefined;
  // One apply: the server stores nothing (and sends no event) when the child is already like this.
  await ctx.core.patchNamespacedConfigMap(
    {
      namespace,
      name: `${name}-tls`,
      body: desiredChild(site, secretName, secret),
      fieldManager: FIELD_MANAGER,
      force: true,
    },
    applyPatch,
  );
  // The status is written only when there is something new to say: no request on a pass that changes nothing.
  const conditions = structuredClone(site.status?.conditions ?? []) as StatusCondition[];
  const changed = setStatusCondition(conditions, readyCondition(site, secretName, secret));
  if (!changed && site.status?.observedGeneration === site.metadata.generation) return;
  await ctx.siteClient.patchStatus(namespace, name, {
    status: { observedGeneration: site.metadata.generation, conditions },
  });
}
