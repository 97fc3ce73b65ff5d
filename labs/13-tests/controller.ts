/**
 * LAB 13 (given, complete, correct): the ConfigSet controller your tests are about. Read it as the spec: every
 * behaviour below is something a test of yours should pin down.
 *
 * - It keeps `spec.replicas` ConfigMaps `<name>-0`, `<name>-1`... labelled `workbook.dev/configset=<name>`, each
 *   carrying `spec.data` and a controller ownerReference to the ConfigSet.
 * - It adopts a labelled ConfigMap that has no controller, and deletes the children beyond `spec.replicas`.
 * - It is level-triggered: it watches its children too, so a child deleted or edited by someone else is put back.
 * - It writes nothing when everything already matches.
 * - It returns every error, a 409 Conflict included: the queue retries the key with backoff, from a fresher cache.
 * - It carries the finalizer `workbook.dev/children`: when the ConfigSet is deleted, it deletes the children
 *   itself, then removes the finalizer (so it cleans up where no garbage collector runs, as under envtest).
 *
 * Its writes go through {@link ConfigSetWrites}: a test can put the real API, a fake or an interceptor behind it.
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap, type V1ObjectMeta } from "@kubernetes/client-node";
import {
  BuiltinResources,
  Controller,
  enqueueHandler,
  enqueueRequestForOwner,
  getControllerOf,
  isNotFound,
  Lister,
  SharedInformerFactory,
  setControllerReference,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";
import {
  CONFIGSET_LABEL,
  type ConfigSet,
  configSetClient,
  WORKBOOK_API_VERSION,
  WorkbookResources,
} from "kube-controller-workbook/workbook";

/** The finalizer the controller puts on every ConfigSet it manages. */
export const FINALIZER = "workbook.dev/children";

/** A child ConfigMap, with the metadata the API server always sends. */
export type Child = V1ConfigMap & { metadata: V1ObjectMeta };

/**
 * Every write the controller sends. Each update carries the object's `resourceVersion`: an older one than the
 * server holds is answered with 409 Conflict, and a create of a name that exists with 409 AlreadyExists.
 */
export interface ConfigSetWrites {
  createConfigMap(namespace: string, body: Child): Promise<Child>;
  updateConfigMap(namespace: string, body: Child): Promise<Child>;
  deleteConfigMap(namespace: string, name: string): Promise<void>;
  /** Replaces the ConfigSet's `metadata.finalizers` (an update of the ConfigSet as read, resourceVersion included). */
  updateFinalizers(configSet: ConfigSet, finalizers: string[]): Promise<ConfigSet>;
}

/** The writes, sent to the API server of `kubeConfig`. */
export function apiWrites(kubeConfig: KubeConfig): ConfigSetWrites {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const configSets = configSetClient(kubeConfig);
  return {
    createConfigMap: async (namespace, body) =>
      (await core.createNamespacedConfigMap({ namespace, body })) as Child,
    updateConfigMap: async (namespace, body) =>
      (await core.replaceNamespacedConfigMap({ namespace, name: body.metadata.name ?? "", body })) as Child,
    deleteConfigMap: async (namespace, name) => {
      await core.deleteNamespacedConfigMap({ namespace, name });
    },
    updateFinalizers: (configSet, finalizers) =>
      configSets.update({ ...configSet, metadata: { ...configSet.metadata, finalizers } }),
  };
}

/** What one reconcile reads (two caches) and where it writes. */
export interface ReconcileContext {
  writes: ConfigSetWrites;
  configSets: Lister<ConfigSet>;
  children: Lister<Child>;
}

/** `{a: 1, b: 2}` and `{b: 2, a: 1}` are the same data. */
const sameData = (a?: Record<string, string>, b?: Record<string, string>): boolean =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/** Deletes `children`; one already gone is what we wanted. */
async function deleteChildren(ctx: ReconcileContext, namespace: string, children: Child[]): Promise<void> {
  for (const child of children) {
    await ctx.writes.deleteConfigMap(namespace, child.metadata.name ?? "").catch((err) => {
      if (!isNotFound(err)) throw err;
    });
  }
}

/** Brings the ConfigSet of `key` ("namespace/name") and its children together; throws what should be retried. */
export async function reconcileConfigSet(ctx: ReconcileContext, key: string): Promise<void> {
  const { namespace, name } = splitMetaNamespaceKey(key);
  const cs = ctx.configSets.get(namespace, name);
  if (!cs) return; // deleted: the finalizer made sure its children went first
  const finalizers = cs.metadata.finalizers ?? [];
  // Ours: labelled with our name and controlled by us, or by nobody (an orphan we adopt).
  const ours = ctx.children
    .namespace(namespace)
    .list({ [CONFIGSET_LABEL]: name })
    .filter((cm) => !cm.metadata.deletionTimestamp)
    .filter((cm) => getControllerOf(cm)?.uid === cs.metadata.uid || !getControllerOf(cm))
    .sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "", "en", { numeric: true }));

  if (cs.metadata.deletionTimestamp) {
    if (!finalizers.includes(FINALIZER)) return;
    const rest = finalizers.filter((f) => f !== FINALIZER);
    await deleteChildren(ctx, namespace, ours);
    await ctx.writes.updateFinalizers(cs, rest);
    return;
  }
  if (!finalizers.includes(FINALIZER)) await ctx.writes.updateFinalizers(cs, [...finalizers, FINALIZER]);

  const owner = { ...cs, apiVersion: WORKBOOK_API_VERSION, kind: "ConfigSet" };
  const want = cs.spec.data ?? {};
  await deleteChildren(ctx, namespace, ours.slice(cs.spec.replicas));
  const keep = ours.slice(0, cs.spec.replicas);
  for (const child of keep) {
    const adopted = getControllerOf(child)?.uid === cs.metadata.uid;
    const dataMatches = sameData(child.data, want);
    if (adopted && dataMatches) continue; // nothing to write
    const next: Child = { ...child, metadata: { ...child.metadata }, data: { ...want } };
    if (!adopted) setControllerReference(owner, next);
    await ctx.writes.updateConfigMap(namespace, next); // a 409 goes back to the queue
  }
  const taken = new Set(ours.map((cm) => cm.metadata.name));
  for (let i = 0, missing = cs.spec.replicas - keep.length; missing > 0; i++) {
    const childName = `${name}-${i}`;
    if (taken.has(childName)) continue;
    const child: Child = {
      metadata: { name: childName, namespace, labels: { [CONFIGSET_LABEL]: name } },
      data: { ...want },
    };
    setControllerReference(owner, child);
    await ctx.writes.createConfigMap(namespace, child);
    missing--;
  }
}

/** How to start the controller. */
export interface ConfigSetControllerOptions {
  kubeConfig: KubeConfig;
  /** The one namespace to watch. */
  namespace: string;
  /** Where the writes go (default {@link apiWrites} of `kubeConfig`): a test may wrap them. */
  writes?: ConfigSetWrites;
}

/** A running controller. */
export interface RunningController {
  /** Stops the workers and the informers; resolves once everything has stopped. */
  stop(): Promise<void>;
}

/**
 * Starts the controller: informers on ConfigSets and on labelled ConfigMaps, a queue, one worker. Resolves once
 * the caches have synced.
 */
export async function startConfigSetController(
  options: ConfigSetControllerOptions,
): Promise<RunningController> {
  const { kubeConfig, namespace } = options;
  const factory = new SharedInformerFactory(kubeConfig, { namespace });
  const configSets = factory.informerFor<ConfigSet>(WorkbookResources.configSets);
  const children = factory.informerFor<Child>(BuiltinResources.configMaps, {
    labelSelector: CONFIGSET_LABEL,
  });
  const ctx: ReconcileContext = {
    writes: options.writes ?? apiWrites(kubeConfig),
    configSets: new Lister(configSets.getIndexer()),
    children: new Lister(children.getIndexer()),
  };
  const controller = new Controller({
    name: `configset-${namespace}`,
    reconcile: (key) => reconcileConfigSet(ctx, key),
    hasSynced: [() => configSets.hasSynced(), () => children.hasSynced()],
    onError: () => {}, // the key is retried with backoff; a test looks at the outcome
  });
  configSets.addEventHandler(enqueueHandler(controller.queue));
  // A child's event wakes its controlling ConfigSet: a deleted or edited child is put back.
  children.addEventHandler(
    enqueueRequestForOwner(controller.queue, { kind: "ConfigSet", group: "workbook.dev" }),
  );
  factory.start();
  controller.start();
  await factory.waitForCacheSync();
  return {
    async stop() {
      await controller.stop();
      await factory.stop();
    },
  };
}
