/**
 * Non-resource endpoints: discovery documents and `/version` (see `discovery.ts`), OpenAPI (`openapi.ts`) and
 * the health checks `/healthz`, `/livez`, `/readyz` (kube-apiserver answers `ok` as text/plain; `?verbose`
 * lists the checks).
 */

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

/** Serves a non-resource GET, or throws 404. */
export function serveNonResource(
  path: string,
  query: URLSearchParams,
  reply: Reply,
  discovery: DiscoveryDocuments,
  openapi: OpenApiDocuments,
): void {
  if (HEALTH_PATHS.has(path)) {
    const text = query.has("verbose") ? `[+]ping ok\n[+]etcd ok\n${path.slice(1)} check passed\n` : "ok";
    reply.code = 200;
    reply.bytes += Buffer.byteLength(text);
    reply.res.writeHead(200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    reply.res.end(text);
    return;
  }
  const doc = discovery.lookup(path) ?? openapi.lookup(path);
  if (doc === undefined) throw notServed();
  reply.json(200, doc);
}
