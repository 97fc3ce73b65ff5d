import { Agent } from "node:https";
import {
  ApiException,
  createConfiguration,
  HttpMethod,
  type KubeConfig,
  KubernetesObjectApi,
  type RequestContext,
  type ResponseContext,
  ServerConfiguration,
  Watch,
} from "@kubernetes/client-node";
import { type StatusLike, statusToError, toApiError } from "./errors.js";
import type { MetaObject, ObjectList } from "./object.js";
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

/** Marks requests whose response must come back as plain JSON. */
const RAW_JSON = "raw-json";

/**
 * client-node's generic object client, extended with one raw GET of a collection URL. Going through
 * `requestPromise` keeps client-node's authentication, TLS agent, middleware and `ApiException` errors. The
 * response is parsed as plain JSON: client-node's serializer would coerce a list's metadata into `V1ObjectMeta`
 * and drop its `continue` token, and would turn timestamps into Date objects that watch events do not have.
 */
class CollectionClient extends KubernetesObjectApi {
  protected override async processResponse<T>(response: ResponseContext, type?: string): Promise<T> {
    if (type !== RAW_JSON) return super.processResponse(response, type) as Promise<T>;
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) return JSON.parse(text) as T;
    throw new ApiException(response.httpStatusCode, "Unsuccessful HTTP Request", text, response.headers);
  }

  getCollection<T>(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<ObjectList<T>> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    ctx.setHeaderParam("Accept", "application/json");
    for (const [key, value] of Object.entries(query)) ctx.setQueryParam(key, value);
    if (signal) ctx.setSignal(signal);
    return this.requestPromise(ctx, RAW_JSON) as unknown as Promise<ObjectList<T>>;
  }
}

/**
 * One keep-alive HTTPS agent for every LIST of a ListWatch, with the kubeconfig's TLS material. client-node 1.4
 * builds a new `https.Agent` per request (kubernetes-client/javascript #2893), so each page of a paginated list
 * would pay a fresh TLS handshake. Undefined (client-node's own agent) for plain HTTP or proxied clusters.
 */
async function keepAliveAgent(kubeConfig: KubeConfig): Promise<Agent | undefined> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster?.server.startsWith("https:") || cluster.proxyUrl) return undefined;
  const tls: {
    ca?: unknown;
    cert?: unknown;
    key?: unknown;
    pfx?: unknown;
    passphrase?: string;
    rejectUnauthorized?: boolean;
    servername?: string;
    agent?: unknown;
  } = {};
  await kubeConfig.applyToHTTPSOptions(tls as Parameters<KubeConfig["applyToHTTPSOptions"]>[0]);
  if (tls.agent instanceof Agent) tls.agent.destroy();
  return new Agent({
    ca: tls.ca as string | undefined,
    cert: tls.cert as string | undefined,
    key: tls.key as string | undefined,
    pfx: tls.pfx as string | undefined,
    passphrase: tls.passphrase,
    rejectUnauthorized: cluster.skipTLSVerify ? false : tls.rejectUnauthorized,
    servername: cluster.tlsServerName ?? tls.servername,
    keepAlive: true,
    maxSockets: 4,
  });
}

/** client-node's API configuration for a KubeConfig (as `makeApiClient` builds it) plus the keep-alive agent. */
function collectionConfiguration(kubeConfig: KubeConfig, agent: Promise<Agent | undefined>) {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error("the KubeConfig has no current cluster");
  return createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kubeConfig },
    promiseMiddleware: [
      {
        pre: async (ctx: RequestContext) => {
          const a = await agent;
          if (a) ctx.setAgent(a);
          return ctx;
        },
        post: async (rsp: ResponseContext) => rsp,
      },
    ],
  });
}

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
      throw toApiError(err);
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
        if (type === "ERROR") return finish(statusToError((object ?? {}) as StatusLike));
        if (!WATCH_EVENT_TYPES.has(type)) return;
        try {
          onEvent({ type: type as ListWatchEventType, object: object as T });
        } catch (err) {
          finish(err);
        }
      };
      const onDone = (err: unknown) => finish(signal.aborted || !err ? undefined : toApiError(err));
      this.watcher.watch(this.path, query, onLine, onDone).then(
        (ctrl) => {
          controller = ctrl;
          if (settled) ctrl.abort();
        },
        (err: unknown) => finish(toApiError(err)),
      );
    });
  }
}
