/**
 * LAB 12 (given, complete). The site TLS controller's wiring: three informers of one factory (StaticSites,
 * Secrets, and the sites' children), a Controller whose workers run `reconcileSite`, and a child's event waking
 * its owner. Which site and Secret events wake a site is decided in `watches.ts`: that is the lab.
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import {
  BuiltinResources,
  Controller,
  enqueueRequestForOwner,
  Lister,
  SharedInformerFactory,
} from "kube-controller-workbook";
import {
  STATIC_SITE_LABEL,
  type StaticSite,
  staticSiteClient,
  WorkbookResources,
} from "kube-controller-workbook/workbook";
import { reconcileSite, type Secret } from "./reconcile.js";
import { indexSitesBySecret, watchSecrets, watchSites } from "./watches.js";

/** How the grader builds a controller. Keep this contract. */
export interface WatchesControllerOptions {
  kubeConfig: KubeConfig;
  /** The one namespace to watch. */
  namespace: string;
  /** Call it once at the start of every reconcile, with the key. */
  onReconcile?: (key: string) => void;
}

/** A running controller. */
export interface WatchesController {
  /** Starts the informers and the workers; resolves once the caches have synced. */
  start(): Promise<void>;
  /** Stops workers and informers; resolves once everything has stopped. */
  stop(): Promise<void>;
}

/** Builds the site TLS controller for one namespace. */
export function createWatchesController(options: WatchesControllerOptions): WatchesController {
  const { kubeConfig, namespace } = options;
  const factory = new SharedInformerFactory(kubeConfig, { namespace });
  const sites = factory.informerFor<StaticSite>(WorkbookResources.staticSites);
  const secrets = factory.informerFor<Secret>(BuiltinResources.secrets);
  const children = factory.informerFor<V1ConfigMap>(BuiltinResources.configMaps, {
    labelSelector: STATIC_SITE_LABEL,
  });
  // Before the informers start, so the index is built from the first object on.
  indexSitesBySecret(sites);
  const ctx = {
    core: kubeConfig.makeApiClient(CoreV1Api),
    siteClient: staticSiteClient(kubeConfig),
    sites: new Lister<StaticSite>(sites.getIndexer()),
    secrets: new Lister<Secret>(secrets.getIndexer()),
  };
  const controller = new Controller({
    name: `site-tls-${namespace}`,
    reconcile: async (key) => {
      options.onReconcile?.(key);
      await reconcileSite(ctx, key);
    },
    hasSynced: [() => sites.hasSynced(), () => secrets.hasSynced(), () => children.hasSynced()],
    // A 409 from a cache that was behind is normal: the key is retried with backoff.
    onError: () => {},
  });
  watchSites(sites, controller.queue);
  watchSecrets(secrets, sites, controller.queue);
  // A child's event wakes its controlling site: a deleted or edited child is put back.
  children.addEventHandler(
    enqueueRequestForOwner(controller.queue, {
      kind: WorkbookResources.staticSites.kind,
      group: WorkbookResources.staticSites.group,
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
