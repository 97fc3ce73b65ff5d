/**
 * The data the fake cloud holds and reports: buckets, the verbs of its API and one record per call. A bucket
 * here is the "external resource" of the finalizer story: something that lives outside the cluster, which a
 * controller creates for a `Bucket` custom resource and must delete before the custom resource may go.
 */

/** The verbs of the fake cloud's bucket API; every call is counted under one of them. */
export type CloudVerb = "create" | "get" | "list" | "delete";

/** Every verb, in a stable order (for tables and charts). */
export const CLOUD_VERBS: readonly CloudVerb[] = ["create", "get", "list", "delete"];

/** What a caller asks for when creating a bucket (the `spec` of a workbook `Bucket`). */
export interface CloudBucketSpec {
  /** Region the bucket lives in, e.g. `eu-west-1`. */
  region: string;
  /** Whether object versioning is on. Default false. */
  versioning?: boolean;
  /** Free-form tags; controllers put the owning object's UID here to recognise their own buckets. */
  tags?: Record<string, string>;
}

/** A bucket as the cloud reports it. Returned objects are copies: changing them changes nothing in the cloud. */
export interface CloudBucket {
  /** The name, unique in the cloud (like an S3 bucket name). */
  readonly name: string;
  /** The cloud-assigned id, e.g. `bkt-000001` (what a controller records in `status.bucketId`). */
  readonly id: string;
  readonly region: string;
  readonly versioning: boolean;
  readonly tags: Readonly<Record<string, string>>;
  /** Creation time, ISO 8601, from the cloud's clock. */
  readonly createdAt: string;
}

/** How a call ended: `ok`, or the code of the error it was answered with. */
export type CloudCallOutcome = "ok" | "NotFound" | "AlreadyExists" | "Unavailable" | "InternalError";

/** One call to the fake cloud, recorded when it is answered. */
export interface CloudCall {
  /** Sequence number, from 1, in the order calls started. */
  readonly seq: number;
  readonly verb: CloudVerb;
  /** The bucket named by the call (absent for `list`). */
  readonly bucket?: string;
  /** Clock time (ms since epoch) the call started. */
  readonly startedAt: number;
  /** Clock time (ms since epoch) the call was answered. */
  readonly endedAt: number;
  readonly outcome: CloudCallOutcome;
  /**
   * True when the call changed the cloud (a bucket created or deleted), even if the caller got an error:
   * an injected failure "after" the effect is the lost-response case idempotent controllers must survive.
   */
  readonly effective: boolean;
}
