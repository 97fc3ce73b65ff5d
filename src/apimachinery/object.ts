/**
 * Object and metadata types: the one shape of a Kubernetes object that the server, the client, the cache and
 * the helpers all share (apimachinery's `metav1.ObjectMeta`, `metav1.OwnerReference`, `metav1.ListMeta` and
 * `unstructured.Unstructured`).
 *
 * Two views of the same metadata:
 * - {@link ObjectMetaLike}: what code that *reads* any object may rely on. Every field is optional and the
 *   timestamps are `unknown`, so client-node's typed classes (`V1ConfigMap`, whose timestamps are `Date`s) fit
 *   as well as the JSON the server sent: `SharedIndexInformer<V1ConfigMap>` type-checks.
 * - {@link ObjectMeta}: the JSON form the embedded server stores and sends (timestamps as RFC 3339 strings,
 *   unknown fields kept).
 * Objects are kept as the JSON the server sent (client-go's `unstructured.Unstructured`).
 */

/** `metav1.OwnerReference`: who owns an object, read by the garbage collector. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** At most one owner is the managing controller. */
  controller?: boolean;
  /** Foreground deletion of the owner waits for this dependent. */
  blockOwnerDeletion?: boolean;
}

/** The `metav1.ObjectMeta` fields the workbook reads, as any object (JSON or a client-node class) carries them. */
export interface ObjectMetaLike {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: unknown;
  /** Set once deletion was requested; the object stays while finalizers remain. */
  deletionTimestamp?: unknown;
  deletionGracePeriodSeconds?: number;
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

/** Any Kubernetes object: `apiVersion`, `kind`, `metadata` and whatever else its type carries. */
export interface MetaObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
}

/** `metav1.ObjectMeta` as JSON on the wire and in the embedded server's storage. */
export interface ObjectMeta extends ObjectMetaLike {
  creationTimestamp?: string;
  deletionTimestamp?: string;
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** Any Kubernetes object as JSON (`unstructured.Unstructured`): typed metadata, any other field. */
export interface KubeObject extends MetaObject {
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** `metav1.ListMeta`: the snapshot's resourceVersion and the continue token of a paginated list. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** A list response: {@link ListMeta} plus items. */
export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

/** `metadata.resourceVersion` of an object, or `""` when it has none. */
export function resourceVersionOf(obj: MetaObject | undefined): string {
  return obj?.metadata?.resourceVersion ?? "";
}
