/**
 * The StaticSite reconcile: level-triggered, idempotent, one pass from "what the cache says" to "what the world
 * should be". It never asks what event woke it up; it reads the site and its children from the informers' caches
 * and does whatever is still missing. Running it twice in a row does nothing the second time.
 */
import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import {
  type EventRecorder,
  type FakeCloud,
  finalizer,
  isControlledBy,
  type Lister,
  STATIC_SITE_FINALIZER,
  STATIC_SITE_LABEL,
  type StaticSite,
  type StaticSiteStatus,
  type StatusCondition,
  setControllerReference,
  setStatusCondition,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";

/** Everything one reconcile needs: caches to read, clients to write, the cloud, the event recorder. */
export interface SiteReconcileDeps {
  sites: Lister<StaticSite>;
  children: Lister<V1ConfigMap>;
  kubeConfig: KubeConfig;
  cloud: FakeCloud;
  events: EventRecorder;
}

/** The bucket that holds a site's content: one per site, named after its namespace and name. */
export function bucketName(site: StaticSite): string {
  return `${site.metadata.namespace}-${site.metadata.name}`;
}

/** The name of a site's i-th child. */
export function childName(site: StaticSite, i: number): string {
  return `${site.metadata.name}-${i}`;
}

/** Where StaticSites live in the API, for CustomObjectsApi calls: `{ ...SITE_API, namespace, name }`. */
export const SITE_API = { group: "workbook.dev", version: "v1alpha1", plural: "staticsites" } as const;

/** Stops a reconcile whose leadership ended: a replica that is no longer leader must not write. */
export function stillLeading(signal: AbortSignal): void {
  if (signal.aborted) throw new Error("leadership lost: reconcile abandoned");
}

/** Reconciles the StaticSite named by `key` ("namespace/name"). Throws to be retried with backoff. */
export async function reconcileSite(
  deps: SiteReconcileDeps,
  key: string,
  signal: AbortSignal,
): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cached = deps.sites.get(namespace, name);
  // Gone: the garbage collector removes the children (owner references), the finalizer already took the bucket.
  if (!cached) return;
  const custom = deps.kubeConfig.makeApiClient(CustomObjectsApi);
  const patchFinalizers = async (site: StaticSite, body: unknown) => {
    stillLeading(signal);
    await custom.patchNamespacedCustomObject(
      { ...SITE_API, namespace, name: site.metadata.name!, body },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
  };
  // notebook 07's protocol: add the finalizer first, apply while live, clean up before the object may go.
  await finalizer(patchFinalizers, STATIC_SITE_FINALIZER, cached, async (event) => {
    if (event.type === "cleanup") await cleanup(deps, event.object, signal);
    else await apply(deps, event.object, signal);
  });
}

/** The site is being deleted: delete its bucket (once; a retry after a lost answer finds nothing to delete). */
async function cleanup(deps: SiteReconcileDeps, site: StaticSite, signal: AbortSignal): Promise<void> {
  stillLeading(signal);
  try {
    const deleted = await deps.cloud.deleteBucket(bucketName(site), { ifMissing: "ignore" });
    if (deleted)
      void deps.events.event(site, "Normal", "BucketDeleted", `deleted bucket ${bucketName(site)}`);
  } catch (err) {
    void deps.events.event(site, "Warning", "CleanupFailed", `bucket not deleted: ${String(err)}`);
    throw err;
  }
}

/** The live site: bucket, then children, then a status that says what was observed. */
async function apply(deps: SiteReconcileDeps, cached: StaticSite, signal: AbortSignal): Promise<void> {
  const site = structuredClone(cached); // never mutate the cache's copy
  const generation = site.metadata.generation ?? 0;
  const status: StaticSiteStatus = structuredClone(site.status ?? {});
  // setStatusCondition edits a plain metav1.Condition list; the schema limits types to our three.
  const conditions: StatusCondition[] = status.conditions ?? [];
  status.conditions = conditions as StaticSiteStatus["conditions"];
  status.observedGeneration = generation;

  // 1. The external resource. A failure is reported truthfully (Degraded) and retried with backoff.
  let bucketId: string;
  try {
    bucketId = await ensureBucket(deps, site);
  } catch (err) {
    const message = `the cloud did not answer: ${String((err as Error).message ?? err)}`;
    setStatusCondition(conditions, {
      type: "Degraded",
      status: "True",
      reason: "CloudUnavailable",
      message,
      observedGeneration: generation,
    });
    setStatusCondition(conditions, {
      type: "Ready",
      status: "False",
      reason: "CloudUnavailable",
      message,
      observedGeneration: generation,
    });
    void deps.events.event(site, "Warning", "CloudUnavailable", message);
    await writeStatus(deps, site, status, signal);
    throw err;
  }
  status.bucketId = bucketId;

  // 2. The children, read from the cache: owned by this site, labelled with its name.
  const owned = deps.children
    .namespace(site.metadata.namespace!)
    .list({ [STATIC_SITE_LABEL]: site.metadata.name! })
    .filter((cm) => isControlledBy(cm, site));
  const wanted = new Set(Array.from({ length: site.spec.replicas }, (_, i) => childName(site, i)));
  const core = deps.kubeConfig.makeApiClient(CoreV1Api);
  const stale = new Set<string>();
  let created = 0;
  let updated = 0;
  let deleted = 0;
  for (const child of owned) {
    const childNameNow = child.metadata!.name!;
    if (!wanted.has(childNameNow)) {
      stillLeading(signal);
      await core.deleteNamespacedConfigMap({ name: childNameNow, namespace: site.metadata.namespace! });
      deleted++;
    } else if (child.data?.["index.html"] !== site.spec.content) {
      stillLeading(signal);
      // WRONG: a stale child is deleted and made again below, with the new content (and a new UID).
      await core.deleteNamespacedConfigMap({ name: childNameNow, namespace: site.metadata.namespace! });
      stale.add(childNameNow);
      updated++;
    }
  }
  const present = new Set(owned.map((cm) => cm.metadata!.name!).filter((n) => !stale.has(n)));
  for (const want of wanted) {
    if (present.has(want)) continue;
    const body: V1ConfigMap = {
      metadata: {
        name: want,
        namespace: site.metadata.namespace,
        labels: { [STATIC_SITE_LABEL]: site.metadata.name! },
      },
      data: { "index.html": site.spec.content },
    };
    setControllerReference(site, body);
    stillLeading(signal);
    try {
      await core.createNamespacedConfigMap({ namespace: site.metadata.namespace!, body });
    } catch (err) {
      // Our cache lags our own writes: an AlreadyExists means it is there; the next pass sees it.
      if ((err as { code?: number }).code !== 409) throw err;
    }
    created++;
  }
  if (created + updated + deleted > 0) {
    void deps.events.event(
      site,
      "Normal",
      "Reconciled",
      `children: ${created} created, ${updated} updated, ${deleted} deleted`,
    );
  }

  // 3. Status from what the cache showed (before this pass acted): the truth, never the intention.
  const current = owned.filter((cm) => wanted.has(cm.metadata!.name!));
  const ready = current.filter((cm) => cm.data?.["index.html"] === site.spec.content).length;
  status.replicas = owned.length;
  status.readyReplicas = ready;
  const acted = created + updated + deleted > 0;
  const converged = !acted && ready === site.spec.replicas && owned.length === site.spec.replicas;
  setStatusCondition(conditions, {
    type: "Degraded",
    status: "False",
    reason: "AsExpected",
    message: "the cloud answers",
    observedGeneration: generation,
  });
  setStatusCondition(conditions, {
    type: "Progressing",
    status: acted ? "True" : "False",
    reason: acted ? "Reconciling" : "Converged",
    message: `${created} created, ${updated} updated, ${deleted} deleted`,
    observedGeneration: generation,
  });
  setStatusCondition(conditions, {
    type: "Ready",
    status: converged ? "True" : "False",
    reason: converged ? "AllReplicasReady" : "ReplicasNotReady",
    message: `${ready}/${site.spec.replicas} replicas serve the current content`,
    observedGeneration: generation,
  });
  await writeStatus(deps, site, status, signal);
}

/** The site's bucket: read it, create it when missing (idempotent by name). Returns its id. */
async function ensureBucket(deps: SiteReconcileDeps, site: StaticSite): Promise<string> {
  const name = bucketName(site);
  try {
    return (await deps.cloud.getBucket(name)).id;
  } catch (err) {
    if ((err as { code?: string }).code !== "NotFound") throw err;
  }
  const bucket = await deps.cloud.createBucket(
    name,
    { region: "workbook-1", tags: { "workbook.dev/site-uid": site.metadata.uid ?? "" } },
    { ifExists: "return" },
  );
  void deps.events.event(site, "Normal", "BucketCreated", `created bucket ${name} (${bucket.id})`);
  return bucket.id;
}

/** Writes the status subresource, but only when it changed (a no-op write would wake us up again: a hot loop). */
async function writeStatus(
  deps: SiteReconcileDeps,
  site: StaticSite,
  status: StaticSiteStatus,
  signal: AbortSignal,
): Promise<void> {
  if (canonical(site.status ?? {}) === canonical(status)) return;
  stillLeading(signal);
  const custom = deps.kubeConfig.makeApiClient(CustomObjectsApi);
  await custom.replaceNamespacedCustomObjectStatus({
    ...SITE_API,
    namespace: site.metadata.namespace!,
    name: site.metadata.name!,
    body: { ...site, status },
  });
}

/** JSON with sorted keys, so two equal statuses compare equal whatever order their fields came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
