/**
 * The minimal shape the client and cache layers read from any Kubernetes object: its metadata. Objects are kept
 * as the JSON the server sent (client-go's `unstructured.Unstructured`); typed classes such as client-node's
 * `V1ConfigMap` fit the same shape, so `SharedIndexInformer<V1ConfigMap>` type-checks.
 */

/** The `metav1.ObjectMeta` fields the cache uses (keys, indexes, tombstones, resourceVersion bookkeeping). */
export interface ObjectMetaLike {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
  ownerReferences?: Array<{ uid: string; kind?: string; name?: string; controller?: boolean }>;
  deletionTimestamp?: unknown;
}

/** Any Kubernetes object: `apiVersion`, `kind`, `metadata` and whatever else its type carries. */
export interface MetaObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
}

/** A list response: `metav1.ListMeta` (resourceVersion of the snapshot, continue token) plus items. */
export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** `metadata.resourceVersion` of an object, or `""` when it has none. */
export function resourceVersionOf(obj: MetaObject | undefined): string {
  return obj?.metadata?.resourceVersion ?? "";
}
