/**
 * LAB 11 (given, complete). The ConfigSet controller's wiring, as lab 05's solution builds it: two shared
 * informers (ConfigSets, and the ConfigMaps labelled `workbook.dev/configset`), a Controller whose workers run
 * `reconcileConfigSet`, a ConfigSet event enqueues its own key, a ConfigMap event its owner's key. Nothing to
 * change here: this lab is about how `reconcile.ts` writes.
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import {
  BuiltinResources,
  Controller,
  enqueueHandler,
  enqueueRequestForOwner,
  Lister,
  SharedInformerFactory,
} from "kube-controller-workbook";
import { CONFIGSET_LABEL, type ConfigSet, WorkbookResources } from "kube-controller-workbook/workbook";
import { reconcileConfigSet } from "./reconcile.js";

/** How the grader builds a controller. Keep this contract. */
export interface ApplyControllerOptions {
  kubeConfig: KubeConfig;
  /** The one namespace to watch. */
  namespace: string;
  /** Call it once at the start of every reconcile, with the key. */
  onReconcile?: (key: string) => void;
}

/** A running controller. */
export interface ApplyController {
  /** Starts the informers and the workers; resolves once the caches have synced. */
  start(): Promise<void>;
  /** Stops workers and informers; resolves once everything has stopped. */
  stop(): Promise<void>;
}

/** Builds the ConfigSet controller for one namespace. */
export function createApplyController(options: ApplyControllerOptions): ApplyController {
  const { kubeConfig, namespace } = options;
  const factory = new SharedInformerFactory(kubeConfig, { namespace });
  const configSets = factory.informerFor<ConfigSet>(WorkbookResources.configSets);
  const children = factory.informerFor<V1ConfigMap>(BuiltinResources.configMaps, {
    labelSelector: CONFIGSET_LABEL,
  });
  const ctx = {
    core: kubeConfig.makeApiClient(CoreV1Api),
    configSets: new Lister<ConfigSet>(configSets.getIndexer()),
    children: new Lister<V1ConfigMap>(children.getIndexer()),
  };
  const controller = new Controller({
    name: `configsets-${namespace}`,
    reconcile: async (key) => {
      options.onReconcile?.(key);
      await reconcileConfigSet(ctx, key);
    },
    hasSynced: [() => configSets.hasSynced(), () => children.hasSynced()],
    // A 409 from a cache that was behind is normal: the key is retried with backoff.
    onError: () => {},
  });
  configSets.addEventHandler(enqueueHandler(controller.queue));
  // A child's event wakes its controlling ConfigSet (found through its ownerReference, not a label).
  children.addEventHandler(
    enqueueRequestForOwner(controller.queue, {
      kind: WorkbookResources.configSets.kind,
      group: WorkbookResources.configSets.group,
    }),
  );
  return {
    async start() {
      factory.start();
      controller.start();
      await factory.waitForCacheSync();
    },
    async stop() {
      await controller.stop();
      await factory.stop();
    },
  };
}
