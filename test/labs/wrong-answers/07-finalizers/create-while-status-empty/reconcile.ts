/**
 * The Bucket reconcile: keep one bucket in the fake cloud for every Bucket object, and delete it before the
 * object may go. Level-triggered: it never asks which event woke it up, only what the Bucket says now.
 */
import {
  BUCKET_FINALIZER,
  type Bucket,
  type CustomResourceClient,
  type FakeCloud,
  type FinalizersPatch,
  finalizer,
  isCloudNotFound,
} from "kube-controller-workbook";

/** What one reconcile needs: a client to write Buckets, and the cloud. */
export interface BucketDeps {
  buckets: CustomResourceClient<Bucket>;
  cloud: FakeCloud;
}

/** The cloud bucket of a Bucket object: `<namespace>-<name>` (the grader looks for this name). */
export function cloudBucketName(bucket: Bucket): string {
  return `${bucket.metadata.namespace}-${bucket.metadata.name}`;
}

/** Creates the cloud bucket the first time (WRONG: status.bucketId decides whether the bucket exists). */
async function ensureCloudBucket(deps: BucketDeps, bucket: Bucket): Promise<void> {
  if (bucket.status?.bucketId) return;
  const spec = { region: bucket.spec.region, versioning: bucket.spec.versioning };
  const { id } = await deps.cloud.createBucket(cloudBucketName(bucket), spec);
  await deps.buckets.patchStatus(bucket.metadata.namespace!, bucket.metadata.name!, {
    status: { bucketId: id, observedGeneration: bucket.metadata.generation },
  });
}

/** Makes the cloud bucket not exist: a bucket that is already gone is fine (cleanup may run twice). */
async function deleteCloudBucket(deps: BucketDeps, bucket: Bucket): Promise<void> {
  try {
    await deps.cloud.deleteBucket(cloudBucketName(bucket));
  } catch (err) {
    if (!isCloudNotFound(err)) throw err;
  }
}

/**
 * Reconciles one Bucket (`undefined`: it is gone from the cache, nothing to do). Throw to be retried.
 * `finalizer()` adds BUCKET_FINALIZER first, calls apply on live Buckets and cleanup on deleting ones, and
 * removes the finalizer only after cleanup succeeded, with patches guarded by resourceVersion.
 */
export async function reconcileBucket(deps: BucketDeps, bucket: Bucket | undefined): Promise<void> {
  if (!bucket) return;
  const patch = (b: Bucket, body: FinalizersPatch) =>
    deps.buckets.patch(b.metadata.namespace!, b.metadata.name!, body);
  await finalizer(patch, BUCKET_FINALIZER, bucket, async (event) => {
    if (event.type === "apply") await ensureCloudBucket(deps, event.object);
    else await deleteCloudBucket(deps, event.object);
  });
}
