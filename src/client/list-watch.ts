import type { Agent } from "node:https";
import { type KubeConfig, Watch } from "@kubernetes/client-node";
import { type Status, statusToError, toStatusError } from "../apimachinery/errors.js";
import type { MetaObject, ObjectList } from "../apimachinery/object.js";
import { CollectionClient, collectionConfiguration, keepAliveAgent } from "./collection-client.js";
import {
  apiVersionOf,
  collectionPath,
  type ResourceDescriptor,
  validateDescriptor,
} from "./resource-descriptor.js";

/** Query of one LIST request (`metav1.ListOptions` for a list). */
export interface ListRequest {
  /** `""`: most recent (consistent read); `"0"`: any (cache, may be stale); `N`: not older than N. */
  resourceVersion?: string;
  /** Page size; the server returns a `continue` token when more remain. */
  limit?: number;
  /** Token of the next page, from the previous page's `metadata.continue`. */
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Query of one WATCH request (`metav1.ListOptions` with `watch=true`). */
export interface WatchRequest {
  /** Start exactly after this resourceVersion (`""`/`"0"`: synthetic ADDED events for current state first). */
  resourceVersion?: string;
  /** The server ends the stream after this many seconds (client-go sends a random 300-600). */
  timeoutSeconds?: number;
  /** Ask for BOOKMARK events, which carry only a newer resourceVersion. */
  allowWatchBookmarks?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
}

/** The event types a watch delivers to its callback; `ERROR` events never arrive here, they reject the watch. */
export type ListWatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

/** One watch event: the type and the object (for BOOKMARK, only `metadata.resourceVersion` is meaningful). */
export interface ListWatchEvent<T> {
  type: ListWatchEventType;
  object: T;
}

/**
 * The two calls a Reflector needs: client-go's `cache.ListerWatcher`. {@link ListWatch} implements it over HTTP;
 * tests implement it in memory.
 *
 * Contract of `watch`: events go to `onEvent` in order; the promise resolves when the stream ends normally (server
 * timeout, EOF) or when `signal` aborts, and rejects with a typed error (`ExpiredError` for 410, `StatusError`
 * otherwise) for an HTTP error status or an in-stream `ERROR` event, or with the transport error if the connection
 * broke.
 */
export interface ListerWatcher<T> {
  list(request: ListRequest): Promise<ObjectList<T>>;
  watch(
    request: WatchRequest,
    onEvent: (event: ListWatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

/** Scope of a {@link ListWatch}: one namespace (or all) and default selectors (client-go's `tweakListOptions`). */
export interface ListWatchScope {
  /** Only this namespace; omit for all namespaces (or for a cluster-scoped resource). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

const WATCH_EVENT_TYPES = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK"]);

function definedQuery(
  entries: Record<string, string | number | boolean | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value !== undefined && value !== "") out[key] = String(value);
  }
  return out;
}

/**
 * LIST and WATCH of one resource through @kubernetes/client-node 1.4 (its request pipeline for LIST, its `Watch`
 * class for WATCH). Mirrors client-go's `cache.NewListWatchFromClient` / `NewFilteredListWatchFromClient`.
 * Listed items get `apiVersion` and `kind` filled in when the server omitted them (kube-apiserver omits them in
 * list items; client-go informers famously hand out objects with an empty TypeMeta because of it).
 */
export class ListWatch<T extends MetaObject = MetaObject> implements ListerWatcher<T> {
  private readonly client: CollectionClient;
  private readonly watcher: Watch;
  private readonly path: string;
  private readonly agent: Promise<Agent | undefined>;

  constructor(
    kubeConfig: KubeConfig,
    readonly resource: ResourceDescriptor,
    readonly scope: ListWatchScope = {},
  ) {
    validateDescriptor(resource);
    this.path = collectionPath(resource, scope.namespace);
    this.agent = keepAliveAgent(kubeConfig);
    this.agent.catch(() => {}); // a TLS setup error surfaces on the first request instead
    this.client = new CollectionClient(collectionConfiguration(kubeConfig, this.agent));
    this.watcher = new Watch(kubeConfig);
  }

  /** Closes the pooled LIST connections (idle ones never keep the process alive; this frees them at once). */
  async close(): Promise<void> {
    (await this.agent.catch(() => undefined))?.destroy();
  }

  /** One LIST request (one page when `limit` is set). HTTP errors reject with a typed `StatusError`. */
  async list(request: ListRequest = {}): Promise<ObjectList<T>> {
    const query = definedQuery({
      resourceVersion: request.resourceVersion,
      limit: request.limit && request.limit > 0 ? request.limit : undefined,
      continue: request.continue,
      labelSelector: request.labelSelector ?? this.scope.labelSelector,
      fieldSelector: request.fieldSelector ?? this.scope.fieldSelector,
    });
    let list: ObjectList<T>;
    try {
      list = await this.client.getCollection<T>(this.path, query, request.signal);
    } catch (err) {
      throw toStatusError(err) ?? err;
    }
    if (!list || !Array.isArray(list.items)) throw new Error(`LIST ${this.path} returned no items array`);
    const apiVersion = apiVersionOf(this.resource);
    for (const item of list.items) {
      if (item.apiVersion === undefined) item.apiVersion = apiVersion;
      if (item.kind === undefined) item.kind = this.resource.kind;
    }
    list.metadata ??= {};
    return list;
  }

  /** One WATCH stream; see {@link ListerWatcher} for how it settles. */
  watch(
    request: WatchRequest,
    onEvent: (event: ListWatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    const query = definedQuery({
      resourceVersion: request.resourceVersion,
      timeoutSeconds: request.timeoutSeconds,
      allowWatchBookmarks: request.allowWatchBookmarks ? true : undefined,
      labelSelector: request.labelSelector ?? this.scope.labelSelector,
      fieldSelector: request.fieldSelector ?? this.scope.fieldSelector,
    });
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let controller: AbortController | undefined;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        controller?.abort();
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => finish();
      signal.addEventListener("abort", onAbort, { once: true });
      const onLine = (type: string, object: unknown) => {
        if (settled) return;
        if (type === "ERROR") return finish(statusToError((object ?? {}) as Status));
        if (!WATCH_EVENT_TYPES.has(type)) return;
        try {
          onEvent({ type: type as ListWatchEventType, object: object as T });
        } catch (err) {
          finish(err);
        }
      };
      const onDone = (err: unknown) =>
        finish(signal.aborted || !err ? undefined : (toStatusError(err) ?? err));
      this.watcher.watch(this.path, query, onLine, onDone).then(
        (ctrl) => {
          controller = ctrl;
          if (settled) ctrl.abort();
        },
        (err: unknown) => finish(toStatusError(err) ?? err),
      );
    });
  }
}
