/**
 * TypeScript types of the workbook's kinds, as an operator's `api/v1alpha1/*_types.go` declares its Go structs
 * (kubebuilder's `ConfigSetSpec`, `ConfigSetStatus`...). They describe the JSON the server stores; the CRD
 * schema in `crds.ts` is the server-side half of the same contract.
 */
import type { ObjectMeta } from "../../apimachinery/object.js";
import type { ConditionStatus } from "../../controller/conditions.js";

/** The condition types a ConfigSet reports (the usual trio of a workload-like resource). */
export type ConfigSetConditionType = "Ready" | "Progressing" | "Degraded";

/**
 * One status condition as stored (`metav1.Condition`): `lastTransitionTime` moves only when `status` changes;
 * `observedGeneration` says which spec the condition describes. Compatible with the controller package's
 * `setStatusCondition` helpers.
 */
export interface WorkbookCondition<T extends string = string> {
  type: T;
  status: ConditionStatus;
  reason: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** A ConfigSet condition: `type` is one of Ready, Progressing, Degraded (the schema enforces it). */
export type ConfigSetCondition = WorkbookCondition<ConfigSetConditionType>;

/** What the user asks for: how many ConfigMaps, and the data each of them carries. */
export interface ConfigSetSpec {
  /** Desired number of child ConfigMaps, 0..50 (schema `minimum`/`maximum`; -1 is a 422). */
  replicas: number;
  /** Data copied into every child ConfigMap. */
  data?: Record<string, string>;
}

/** What the controller observed, written only through the `/status` subresource. */
export interface ConfigSetStatus {
  /** The `metadata.generation` this status describes; behind `generation` means "not looked at yet". */
  observedGeneration?: number;
  /** Children that exist. */
  replicas?: number;
  /** Children that exist and carry the spec's data. */
  readyReplicas?: number;
  conditions?: ConfigSetCondition[];
}

/**
 * A set of identical ConfigMaps kept at `spec.replicas`, like a ReplicaSet keeps Pods. Children are labelled
 * `workbook.dev/configset=<name>` and carry a controller ownerReference to the ConfigSet.
 */
export interface ConfigSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ConfigSetSpec;
  status?: ConfigSetStatus;
}

/** What the user asks for: a bucket in a region, optionally versioned. */
export interface BucketSpec {
  region: string;
  versioning?: boolean;
}

/** What the controller observed: the external bucket's id once it exists. */
export interface BucketStatus {
  observedGeneration?: number;
  /** The id the (fake) cloud gave the bucket; absent until it was created. */
  bucketId?: string;
  conditions?: WorkbookCondition[];
}

/**
 * A resource that stands for a bucket in the fake cloud (an external resource, like an S3 bucket managed by
 * an operator). Its controller cleans up behind the finalizer `workbook.dev/bucket-cleanup`.
 */
export interface Bucket {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: BucketSpec;
  status?: BucketStatus;
}

/** The condition types a StaticSite reports: Ready, Progressing, Degraded (the schema enforces it). */
export type StaticSiteCondition = WorkbookCondition<"Ready" | "Progressing" | "Degraded">;

/** What the user asks for: how many children serve the content, the content, an optional domain. */
export interface StaticSiteSpec {
  /** Children serving the site, 0..20. */
  replicas: number;
  /** The site's content (an index page); every child serves exactly this. */
  content: string;
  /** The host name the site answers on, if any (shown, never resolved). */
  domain?: string;
}

/** What the operator observed: children, the bucket's id, and its conclusions as conditions. */
export interface StaticSiteStatus {
  /** The `metadata.generation` this status describes. */
  observedGeneration?: number;
  /** Children that exist. */
  replicas?: number;
  /** Children that serve the current content. */
  readyReplicas?: number;
  /** The id the (fake) cloud gave the site's bucket. */
  bucketId?: string;
  conditions?: StaticSiteCondition[];
}

/**
 * A static site: `spec.replicas` children (ConfigMaps labelled `workbook.dev/staticsite=<name>`, or Pods on a
 * cluster with a kubelet) serving `spec.content`, which is also kept in a bucket in the fake cloud: an external
 * resource cleaned up behind the finalizer `workbook.dev/site-cleanup`. The capstone's kind (notebook 10).
 */
export interface StaticSite {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: StaticSiteSpec;
  status?: StaticSiteStatus;
}
