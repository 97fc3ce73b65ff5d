/**
 * Non-resource endpoints: discovery documents and `/version` (see `discovery.ts`; `/api` and `/apis` aggregated
 * when `Accept` asks for `apidiscovery.k8s.io/v2`, see `aggregated-discovery.ts`), OpenAPI (`openapi.ts`) and
 * the health checks `/healthz`, `/livez`, `/readyz` (kube-apiserver answers `ok` as text/plain; `?verbose`
 * lists the checks).
 */

import { AGGREGATED_DISCOVERY_V2, acceptsAggregatedDiscovery } from "./aggregated-discovery.js";
import type { DiscoveryDocuments } from "./discovery.js";
import type { OpenApiDocuments } from "./openapi.js";
import type { Reply } from "./reply.js";
import { notServed } from "./resource-handler.js";

const HEALTH_PATHS = new Set(["/healthz", "/livez", "/readyz"]);

/** Metric label of a non-resource path (bounded set, so random paths cannot grow the metrics map). */
export function nonResourceLabel(path: string): string {
  if (
    HEALTH_PATHS.has(path) ||
    path.startsWith("/healthz/") ||
    path.startsWith("/livez/") ||
    path.startsWith("/readyz/")
  ) {
    return "health";
  }
  if (path.startsWith("/openapi")) return "openapi";
  if (
    path === "/version" ||
    path === "/api" ||
    path.startsWith("/api/") ||
    path === "/apis" ||
    path.startsWith("/apis/")
  ) {
    return "discovery";
  }
  return "other";
}

/**
 * Content-Type of the protobuf OpenAPI v2 answer. kubectl asks for
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, but client-go parses every response's
 * Content-Type with Go's `mime.ParseMediaType`, which rejects the `@`; the body is read raw, so a plain binary
 * type is what works.
 */
export const OPENAPI_V2_PROTOBUF = "application/octet-stream";

/**
 * `/openapi/v2`, kept deliberately empty: a document with `swagger: "2.0"` and no definitions. kubectl before
 * 1.27 (Debian's kubectl is 1.20) downloads it, in protobuf, for client-side validation of `create -f` and
 * `apply -f` and fails with "failed to download openapi" on a 404; with no definition for a kind it skips
 * client-side validation and the server validates instead. Protobuf bytes: field 1 (swagger), length 3, "2.0".
 */
function openApiV2(accept: string): { type: string; body: Buffer } {
  if (accept.includes("protobuf")) {
    return { type: OPENAPI_V2_PROTOBUF, body: Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]) };
  }
  const doc = {
    swagger: "2.0",
    info: { title: "Kubernetes", version: "unversioned" },
    paths: {},
    definitions: {},
  };
  return { type: "application/json", body: Buffer.from(JSON.stringify(doc)) };
}

function send(reply: Reply, type: string, body: Buffer | string): void {
  const length = Buffer.byteLength(body);
  reply.code = 200;
  reply.bytes += length;
  reply.res.writeHead(200, { "Content-Type": type, "Content-Length": length });
  reply.res.end(body);
}

/** Serves a non-resource GET, or throws 404. `accept` is the request's Accept header. */
export function serveNonResource(
  path: string,
  query: URLSearchParams,
  reply: Reply,
  discovery: DiscoveryDocuments,
  openapi: OpenApiDocuments,
  accept = "",
): void {
  if (HEALTH_PATHS.has(path)) {
    const text = query.has("verbose") ? `[+]ping ok\n[+]etcd ok\n${path.slice(1)} check passed\n` : "ok";
    send(reply, "text/plain; charset=utf-8", text);
    return;
  }
  if (path === "/openapi/v2") {
    const { type, body } = openApiV2(accept);
    send(reply, type, body);
    return;
  }
  const aggregated = acceptsAggregatedDiscovery(accept) ? discovery.lookupAggregated(path) : undefined;
  if (aggregated !== undefined) {
    send(reply, AGGREGATED_DISCOVERY_V2, aggregated);
    return;
  }
  const doc = discovery.lookup(path) ?? openapi.lookup(path);
  if (doc === undefined) throw notServed();
  reply.json(200, doc);
}
