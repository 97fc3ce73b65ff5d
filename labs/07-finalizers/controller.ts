/**
 * The Bucket controller's plumbing, already written: a shared informer on Buckets in one namespace, a
 * rate-limited queue fed by the informer's events, and one worker that calls `reconcileBucket` with the cached
 * Bucket (or `undefined` once it is gone from the cache). A reconcile that throws is retried with backoff.
 * You should not need to change this file; your work is in `reconcile.ts`.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import {
  Controller,
  enqueueHandler,
  SharedInformerFactory,
  splitMetaNamespaceKey,
} from "kube-controller-workbook";
import {
  type Bucket,
  bucketClient,
  type FakeCloud,
  WorkbookResources,
} from "kube-controller-workbook/workbook";
import { reconcileBucket } from "./reconcile.js";

/** What the grader passes in: where to work and the cloud to manage buckets in. */
export interface BucketControllerOptions {
  kubeConfig: KubeConfig;
  /** The one namespace this controller watches. */
  namespace: string;
  /** The external API: one cloud bucket per Bucket object. */
  cloud: FakeCloud;
}

/** A running controller. */
export interface BucketController {
  /** Starts the informer and the worker; resolves once the cache has synced. */
  start(): Promise<void>;
  /** Stops the worker and the informer (as if the controller's Pod went away). */
  stop(): Promise<void>;
}

/** Builds a Bucket controller (not started). */
export function createBucketController(options: BucketControllerOptions): BucketController {
  const { kubeConfig, namespace, cloud } = options;
  const factory = new SharedInformerFactory(kubeConfig, { namespace });
  const informer = factory.informerFor<Bucket>(WorkbookResources.buckets);
  const lister = factory.listerFor<Bucket>(WorkbookResources.buckets);
  const deps = { buckets: bucketClient(kubeConfig), cloud };
  const controller = new Controller({
    name: `bucket-controller-${namespace}`,
    hasSynced: [() => informer.hasSynced()],
    reconcile: (key) => reconcileBucket(deps, lister.get(namespace, splitMetaNamespaceKey(key).name)),
    // Failed reconciles are retried with backoff; keep the grader's output quiet.
    onError: () => undefined,
  });
  informer.addEventHandler(enqueueHandler(controller.queue));
  return {
    async start() {
      factory.start();
      controller.start();
      await informer.waitForCacheSync();
    },
    async stop() {
      await controller.stop();
      await factory.stop();
    },
  };
}
