/**
 * The client-node plumbing behind {@link ListWatch}'s LIST: a generic collection GET through client-node's own
 * request pipeline (authentication, TLS, middleware, ApiException), answered as plain JSON, over one keep-alive
 * connection pool. Internal to src/client.
 */
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
} from "@kubernetes/client-node";
import type { ObjectList } from "../apimachinery/object.js";

/** Marks requests whose response must come back as plain JSON. */
const RAW_JSON = "raw-json";

/**
 * client-node's generic object client, extended with one raw GET of a collection URL. Going through
 * `requestPromise` keeps client-node's authentication, TLS agent, middleware and `ApiException` errors. The
 * response is parsed as plain JSON: client-node's serializer would coerce a list's metadata into `V1ObjectMeta`
 * and drop its `continue` token, and would turn timestamps into Date objects that watch events do not have.
 */
export class CollectionClient extends KubernetesObjectApi {
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
export async function keepAliveAgent(kubeConfig: KubeConfig): Promise<Agent | undefined> {
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
export function collectionConfiguration(kubeConfig: KubeConfig, agent: Promise<Agent | undefined>) {
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
