/**
 * The Bucket reconcile: keep one bucket in the fake cloud for every Bucket object, and delete it before the
 * object may go. Level-triggered: it never asks which event woke it up, only what the Bucket says now.
 */
import type { Bucket, CustomResourceClient, FakeCloud } from "kube-controller-workbook/workbook";

/** What one reconcile needs: a client to write Buckets, and the cloud. */
export interface BucketDeps {
  buckets: CustomResourceClient<Bucket>;
  cloud: FakeCloud;
}

/** The cloud bucket of a Bucket object: `<namespace>-<name>` (the grader looks for this name). */
export function cloudBucketName(bucket: Bucket): string {
  return `${bucket.metadata.namespace}-${bucket.metadata.name}`;
}

/**
 * Reconciles one Bucket (`undefined`: it is gone from the cache, nothing to do). Throw to be retried.
 *
 * TODO, the finalizer protocol with the finalizer BUCKET_FINALIZER (`workbook.dev/bucket-cleanup`):
 * 1. A live Bucket without the finalizer: add it (a patch of metadata.finalizers), and return.
 * 2. A live Bucket with the finalizer: make sure the cloud bucket `cloudBucketName(bucket)` exists
 *    (deps.cloud.getBucket, createBucket when it is missing) and record its id in status.bucketId.
 * 3. A Bucket being deleted (metadata.deletionTimestamp) that still has the finalizer: delete the cloud bucket
 *    (one that is already gone counts as deleted), and only then remove the finalizer.
 * The package's `finalizer()` helper (notebook 07, section 4) does the bookkeeping of 1 and 3 for you.
 */
export async function reconcileBucket(deps: BucketDeps, bucket: Bucket | undefined): Promise<void> {
  void deps;
  void bucket;
}
