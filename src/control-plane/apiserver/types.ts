/**
 * The contract between the embedded API server's HTTP layer (`http/`) and its storage and registry
 * (`storage/`, `registry/`). The HTTP layer parses requests and renders responses; the backend owns every
 * Kubernetes semantic (resourceVersion, generation, finalizers, deletion, validation). Mirrors the split in
 * kube-apiserver between `pkg/endpoints` (handlers) and `pkg/registry/generic/registry.Store` (semantics).
 */
import type { KubeObject, ObjectList } from "../../apimachinery/object.js";

/** A list response (`metav1.ListMeta` plus items). */
export interface KubeList extends ObjectList<KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

/** One served resource: what discovery advertises and what the router resolves a URL to. */
export interface ResourceType {
  /** API group, "" for the core group. */
  group: string;
  version: string;
  /** Plural, lower-case resource name as it appears in URLs (`configmaps`). */
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  /**
   * The group whose storage holds the objects, when it is not `group` (events.k8s.io Events are stored as core
   * Events); absent means `group`.
   */
  storageGroup?: string;
  /**
   * Served by apiextensions for a CRD: aggregated discovery names the full group and version in its
   * `responseKind` (built-ins leave them empty).
   */
  custom?: boolean;
  /** Discovery categories (`all` makes `kubectl get all` include the kind); absent means none. */
  categories?: string[];
  /** Subresources served, e.g. `["status"]`; namespaces also serve `finalize`. */
  subresources: string[];
  /** Verbs for discovery: get, list, watch, create, update, patch, delete, deletecollection. */
  verbs: string[];
}

/** Query parameters of a LIST (`metav1.ListOptions`). */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  /** `Exact` or `NotOlderThan`; anything else is decoded and then refused (422 Invalid ListOptions). */
  resourceVersionMatch?: "Exact" | "NotOlderThan" | (string & {});
}

/** Query parameters of a GET: `resourceVersion` ("0" any, N not older than N; malformed 500, too new 504). */
export interface GetOptions {
  resourceVersion?: string;
}

/** Query parameters of a WATCH. */
export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  /** `NotOlderThan` with `sendInitialEvents`; anything else is refused (422 Invalid ListOptions). */
  resourceVersionMatch?: "Exact" | "NotOlderThan" | (string & {});
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

/** The `type` of a watch event on the wire (`k8s.io/apimachinery/pkg/watch`). */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/**
 * One watch event. `line()` is the serialized wire form (`{"type":...,"object":...}\n`), computed once and
 * shared by every watcher that receives the event.
 */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: KubeObject;
  line(): string;
}

/** Where a backend watch delivers events. `close` ends the stream (after an ERROR event, for instance). */
export interface WatchSink {
  event(ev: WatchEvent): void;
  close(): void;
}

/** A running backend watch. */
export interface WatchHandle {
  stop(): void;
  /** Sends one BOOKMARK at the current revision now (if the watch allows bookmarks), e.g. before closing it. */
  bookmark?(): void;
}

/** `metav1.DeleteOptions`. */
export interface DeleteOptions {
  propagationPolicy?: "Background" | "Foreground" | "Orphan";
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

/** Write options shared by create/update/patch. */
export interface WriteOptions {
  /** `"status"` (or `"finalize"` for namespaces) to write a subresource. */
  subresource?: string;
  dryRun?: boolean;
  fieldManager?: string;
  /** `fieldManager` was filled in from the User-Agent, not sent by the client (admission reviews omit it). */
  fieldManagerDefaulted?: boolean;
  /** `?fieldValidation=`: what unknown and duplicate fields cause (default Warn). */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  /** Keys the body repeated (`metadata.name`), found while parsing it. */
  duplicateFields?: string[];
  /** Filled by the backend: warnings for the response's `Warning` headers. */
  warnings?: string[];
  /** `?force=true` of a server-side apply: take conflicting fields from their managers. */
  force?: boolean;
  /** Filled by the backend: a server-side apply created the object (the response is 201). */
  created?: boolean;
}

/**
 * The writes of {@link ApiBackend} through the admission webhooks: same arguments, results and errors, plus
 * what the webhooks add (their rejections, mutations and warnings, in `opts.warnings` or `warnings`).
 */
export interface WebhookWrites {
  create(
    rt: ResourceType,
    namespace: string | undefined,
    body: unknown,
    opts?: WriteOptions,
  ): Promise<KubeObject>;
  update(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts?: WriteOptions,
  ): Promise<KubeObject>;
  patch(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts?: WriteOptions,
  ): Promise<KubeObject>;
  delete(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
    warnings?: string[],
  ): Promise<KubeObject>;
  deleteCollection(
    rt: ResourceType,
    namespace: string | undefined,
    listOpts: ListOptions,
    deleteOpts?: DeleteOptions,
    warnings?: string[],
  ): Promise<KubeList>;
}

/** The PATCH content types kube-apiserver accepts; each selects a patch algorithm. */
export type PatchType =
  | "application/merge-patch+json"
  | "application/json-patch+json"
  | "application/strategic-merge-patch+json"
  | "application/apply-patch+yaml";

/** The eight API verbs a resource request can map to (the RBAC verbs of kube-apiserver). */
export type ApiVerb =
  | "get"
  | "list"
  | "watch"
  | "create"
  | "update"
  | "patch"
  | "delete"
  | "deletecollection";

/**
 * A LIST response already encoded as UTF-8 JSON from its items' stored bytes (`serializer/list-body.ts` builds
 * one), with its length known before the first byte is sent.
 */
export interface EncodedList {
  readonly byteLength: number;
  /** The bytes in chunks, each filled only when asked for. */
  chunks(): Iterable<Buffer>;
  /** The whole body at once. */
  toBuffer(): Buffer;
}

/**
 * The storage-and-semantics backend behind the HTTP layer. Every method either returns or throws an
 * {@link StatusError} carrying a Kubernetes `Status`; nothing else escapes.
 */
/**
 * Runs a custom resource's verbs with its CRD's conversion webhook (`registry/crd-conversion-webhook.ts`):
 * `run` calls `fn` (one or more times) and converts its result to `target` (`group/version`); `watchSink`
 * converts each watch event's object before passing it on.
 */
export interface ConversionRunner {
  run<T>(target: string, deferred: boolean, fn: () => T | Promise<T>): Promise<T>;
  watchSink(target: string, sink: WatchSink): WatchSink;
}

export interface ApiBackend {
  /** Every resource currently served (built-ins plus established CRDs). */
  resourceTypes(): ResourceType[];
  /** Resolves a URL's group/version/resource; undefined when not served. */
  findResource(group: string, version: string, resource: string): ResourceType | undefined;
  /** Called whenever the served set changes (a CRD was created or deleted). Returns an unsubscribe. */
  onResourcesChanged(listener: () => void): () => void;

  get(rt: ResourceType, namespace: string | undefined, name: string, opts?: GetOptions): KubeObject;
  list(rt: ResourceType, namespace: string | undefined, opts: ListOptions): KubeList;
  /**
   * Starts a watch. A resourceVersion older than the retained history produces one ERROR event (410 Expired
   * Status) followed by `sink.close()`, as kube-apiserver's watch cache does inside a 200 stream.
   */
  watch(rt: ResourceType, namespace: string | undefined, opts: WatchOptions, sink: WatchSink): WatchHandle;
  create(rt: ResourceType, namespace: string | undefined, body: unknown, opts?: WriteOptions): KubeObject;
  update(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts?: WriteOptions,
  ): KubeObject;
  patch(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts?: WriteOptions,
  ): KubeObject;
  /** Deletes, or marks for deletion when finalizers remain; returns the final or updated object. */
  delete(rt: ResourceType, namespace: string | undefined, name: string, opts?: DeleteOptions): KubeObject;
  deleteCollection(
    rt: ResourceType,
    namespace: string | undefined,
    listOpts: ListOptions,
    deleteOpts?: DeleteOptions,
  ): KubeList;

  /**
   * Optional: the writes as the HTTP handlers make them, through the admission webhooks (asynchronous: a
   * webhook is an HTTPS call). Absent, the handlers use the synchronous verbs above, which call no webhook.
   */
  webhookWrites?: WebhookWrites;

  /**
   * Optional: the conversion webhook of a custom resource whose CRD has `spec.conversion.strategy: Webhook`.
   * The HTTP handlers run that resource's verbs through it (the webhook is an HTTPS call).
   */
  conversionWebhook?(rt: ResourceType): ConversionRunner | undefined;

  /** Current global revision (the newest resourceVersion handed out). */
  currentRevision(): number;
  /** Drops all watch history up to now, so any resume from an older resourceVersion gets 410 (teaching fault). */
  compactHistory(): void;
  /**
   * Optional fast path: the whole LIST response body as UTF-8 JSON, built from each item's stored bytes (same
   * semantics and errors as `list`).
   */
  listJson?(rt: ResourceType, namespace: string | undefined, opts: ListOptions): EncodedList;
  /**
   * Optional: a GET (`name` set) or LIST answered as a `meta.k8s.io/v1` Table, for clients that ask with
   * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (kubectl get). `includeObject` is the query parameter
   * (None, Metadata or Object; default Metadata). Same errors as get and list.
   */
  table?(
    rt: ResourceType,
    namespace: string | undefined,
    name: string | undefined,
    opts: ListOptions,
    includeObject?: string,
  ): unknown;
  /** Optional: one watched object as the Table a watch asked `as=Table` sends in its event (see `table`). */
  tableOf?(rt: ResourceType, obj: KubeObject, includeObject?: string): unknown;
  /** Optional: stops the backend's timers (watch bookmarks) and closes its watches. Idempotent. */
  stop?(): void;
}
