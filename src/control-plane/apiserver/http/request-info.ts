/**
 * Turns a request's method and path into a {@link RequestInfo}: which API group/version, namespace, resource,
 * name and subresource it addresses, and which Kubernetes verb it is. Mirrors kube-apiserver's
 * `k8s.io/apiserver/pkg/endpoints/request.RequestInfoFactory`, including its two quirks:
 * - `/api/v1/namespaces/<ns>/status|finalize` address the Namespace object itself (namespace subresources),
 *   while `/api/v1/namespaces/<ns>/<resource>` address resources inside the namespace;
 * - the legacy `/watch/` path segment turns a GET into a `watch` (superseded by `?watch=true`).
 */
import { badRequest, methodNotAllowed } from "../../../apimachinery/errors.js";
import type { ApiVerb } from "../types.js";

/** A request for a REST resource under `/api/v1` or `/apis/<group>/<version>`. */
export interface ResourceRequestInfo {
  kind: "resource";
  verb: ApiVerb;
  /** "" for the core group. */
  group: string;
  version: string;
  /** Namespace from the path, undefined for cluster-wide requests. */
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
}

/** Anything else: discovery documents, /version, health endpoints, OpenAPI. `path` has no trailing slash. */
export interface NonResourceRequestInfo {
  kind: "nonresource";
  verb: "get";
  path: string;
}

/** What a request addresses: a REST resource or a non-resource path. */
export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** Subresources of Namespace objects, which share the `/namespaces/<name>/<x>` shape with namespaced lists. */
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

function splitPath(path: string): string[] {
  const parts: string[] = [];
  for (const raw of path.split("/")) {
    if (raw === "") continue;
    let part: string;
    try {
      part = raw.includes("%") ? decodeURIComponent(raw) : raw;
    } catch {
      throw badRequest(`invalid path segment encoding: ${JSON.stringify(raw)}`);
    }
    if (part === "." || part === ".." || part.includes("/") || part.includes("\0")) {
      throw badRequest(`invalid path segment: ${JSON.stringify(part)}`);
    }
    parts.push(part);
  }
  return parts;
}

function verbFor(method: string, hasName: boolean, watchParam: boolean, legacyWatch: boolean): ApiVerb {
  switch (method) {
    case "GET":
    case "HEAD":
      if (legacyWatch || watchParam) {
        // A HEAD response has no body, so a HEAD watch would hold a stream nobody can read.
        if (method === "HEAD") throw methodNotAllowed("HEAD is not supported for watch");
        return "watch";
      }
      return hasName ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
    case "PATCH":
      // kube-apiserver registers PUT and PATCH only on named objects: on a collection they are 405.
      if (!hasName) throw methodNotAllowed("the server does not allow this method on the requested resource");
      return method === "PUT" ? "update" : "patch";
    case "DELETE":
      return hasName ? "delete" : "deletecollection";
    default:
      throw methodNotAllowed(`${method} is not supported`);
  }
}

/**
 * Parses a request. `watchParam` is the value of the `watch` query parameter (`true`/`1`). Non-API paths and
 * API-root paths (`/api`, `/api/v1`, `/apis/<g>/<v>`) come back as non-resource requests; only GET is allowed
 * on those.
 */
export function parseRequestInfo(method: string, pathname: string, watchParam: boolean): RequestInfo {
  const parts = splitPath(pathname);
  const isCore = parts[0] === "api";
  const isGroup = parts[0] === "apis";
  const rootLength = isCore ? 2 : 3; // api/v1 | apis/<group>/<version>
  if ((!isCore && !isGroup) || parts.length <= rootLength) {
    if (method !== "GET" && method !== "HEAD")
      throw methodNotAllowed(`${method} is not supported on this path`);
    return { kind: "nonresource", verb: "get", path: `/${parts.join("/")}` };
  }
  const group = isCore ? "" : (parts[1] as string);
  const version = parts[rootLength - 1] as string;
  let rest = parts.slice(rootLength);
  let legacyWatch = false;
  if (rest[0] === "watch") {
    legacyWatch = true;
    rest = rest.slice(1);
    if (rest.length === 0) throw badRequest("watch requires a resource");
  }
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length >= 2) {
    const ns = rest[1] as string;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] as string)) {
      namespace = ns;
      rest = rest.slice(2);
    }
    // else: /namespaces/<name>[/status|/finalize] addresses the Namespace object itself.
  }
  if (rest.length > 3) throw badRequest(`unexpected path: /${parts.join("/")}`);
  const [resource, name, subresource] = rest as [string, string | undefined, string | undefined];
  const info: ResourceRequestInfo = {
    kind: "resource",
    verb: verbFor(method, name !== undefined, watchParam, legacyWatch),
    group,
    version,
    resource,
  };
  if (namespace !== undefined) info.namespace = namespace;
  if (name !== undefined) info.name = name;
  if (subresource !== undefined) info.subresource = subresource;
  return info;
}
