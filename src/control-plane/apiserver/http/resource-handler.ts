/**
 * Serving one REST resource request: resolve the resource, check scope, subresource and verb, decode the body
 * and call the backend. This is kube-apiserver's `pkg/endpoints/handlers` (get.go, create.go, update.go,
 * patch.go, delete.go, watch.go) in one table: every Kubernetes semantic lives in the backend, this file
 * only translates HTTP to backend calls and results back to HTTP.
 */
import { badRequest, methodNotAllowed, type Status, StatusError } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import { methodNotRouted } from "../errors.js";
import { managerFromUserAgent } from "../fieldmanager/manager-name.js";
import { cloneJson } from "../json.js";
import { handOverBody } from "../registry/decode-body.js";
import type { ApiBackend, ResourceType, WriteOptions } from "../types.js";
import {
  parseJson,
  parseObjectBody,
  parsePatch,
  patchTypeOf,
  readBody,
  requireJsonBody,
  requireObject,
} from "./body.js";
import { deleteOptionsFrom, listOptionsFrom, timeoutSecondsFrom, writeOptionsFrom } from "./query.js";
import type { Reply } from "./reply.js";
import type { ResourceRequestInfo } from "./request-info.js";
import type { ApiRequest } from "./transport.js";

/** What the resource handler needs per request. */
export interface ResourceRequest {
  req: ApiRequest;
  reply: Reply;
  query: URLSearchParams;
  info: ResourceRequestInfo;
  backend: ApiBackend;
  /** Opens a watch stream for `rt` (owned by the API handler, which tracks open watches). */
  serveWatch(rt: ResourceType, timeoutSeconds: number | undefined, asTable?: boolean): void;
}

/** Verbs allowed on subresources: status-like ones read and write, `finalize` only updates. */
const SUBRESOURCE_VERBS: Record<string, readonly string[]> = {
  finalize: ["update"],
};
const DEFAULT_SUBRESOURCE_VERBS = ["get", "update", "patch"];

/** The 404 kube-apiserver answers for a path it does not serve. */
export function notServed(): StatusError {
  return new StatusError({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "the server could not find the requested resource",
    reason: "NotFound",
    details: {},
    code: 404,
  });
}

/** Resolves the resource and checks scope, subresource and verb; throws 404 or 405. */
export function resolveResource(backend: ApiBackend, info: ResourceRequestInfo): ResourceType {
  const rt = backend.findResource(info.group, info.version, info.resource);
  if (!rt) throw notServed();
  if (info.namespace !== undefined && !rt.namespaced) throw notServed();
  if (rt.namespaced && info.namespace === undefined && info.name !== undefined) throw notServed();
  // The all-namespaces path of a namespaced resource serves only reads (`kubectl get -A`), as in kube-apiserver.
  if (rt.namespaced && info.namespace === undefined && info.verb !== "list" && info.verb !== "watch") {
    throw methodNotAllowed(`${info.verb} of ${rt.resource} requires a namespace in the path`);
  }
  if (info.subresource !== undefined) {
    if (!rt.subresources.includes(info.subresource)) throw notServed();
    const allowed = SUBRESOURCE_VERBS[info.subresource] ?? DEFAULT_SUBRESOURCE_VERBS;
    if (!allowed.includes(info.verb))
      throw methodNotAllowed(`${info.verb} is not supported on ${info.subresource}`);
  } else if (!rt.verbs.includes(info.verb)) {
    throw methodNotAllowed(`${info.verb} is not supported on ${rt.resource}`);
  }
  return rt;
}

/**
 * Checks a create/update body against the URL: it must be a JSON object whose namespace and name (when
 * present) agree with the path, else 400 (kube-apiserver's "does not match the namespace/name on the URL").
 * Type meta (apiVersion/kind: checked, and filled in when absent) is the backend's decoder's job.
 */
export function checkBodyAgainstPath(body: unknown, info: ResourceRequestInfo): KubeObject {
  const obj = requireObject(body);
  const meta = obj.metadata;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return obj as KubeObject;
  const m = meta as Record<string, unknown>;
  const ns = m.namespace;
  if (info.namespace !== undefined && ns !== undefined && ns !== "" && ns !== info.namespace) {
    throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  if (info.name !== undefined && m.name !== undefined && m.name !== info.name) {
    throw badRequest(
      `the name of the object (${String(m.name)}) does not match the name on the URL (${info.name})`,
    );
  }
  return obj as KubeObject;
}

/**
 * Whether a group is served by kube-apiserver itself (core, `apps`, `*.k8s.io`...) rather than by a CRD.
 * kube-apiserver answers an immediate DELETE of a built-in with a `Status: Success` but of a custom resource
 * with the deleted object (`ReturnDeletedObject` in the CR storage).
 */
function isBuiltinGroup(group: string): boolean {
  return group === "" || !group.includes(".") || group.endsWith(".k8s.io");
}

/**
 * True when a DELETE removed the object: nothing keeps it (no finalizers, and no deletionTimestamp, which a
 * namespace held by its spec finalizers carries while Terminating).
 */
function wasRemoved(obj: KubeObject): boolean {
  return (obj.metadata?.finalizers?.length ?? 0) === 0 && obj.metadata?.deletionTimestamp === undefined;
}

/**
 * The `Status: Success` kube-apiserver returns when a DELETE removed the object immediately: no message,
 * reason or code (Go omits them when empty).
 */
function deletedStatus(rt: ResourceType, obj: KubeObject): Omit<Status, "message" | "reason" | "code"> {
  const details: NonNullable<Status["details"]> = { name: obj.metadata?.name ?? "", kind: rt.resource };
  if (rt.group) details.group = rt.group;
  if (obj.metadata?.uid) details.uid = obj.metadata.uid;
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details };
}

/**
 * Whether the client asked for a `meta.k8s.io/v1` Table (kubectl get sends
 * `application/json;as=Table;v=v1;g=meta.k8s.io, ..., application/json`). Other Table versions fall through.
 */
function wantsTable(req: ApiRequest): boolean {
  const accept = req.headers.accept ?? "";
  return accept.split(",").some((range) => {
    const params = new Set(range.split(";").map((p) => p.trim()));
    return params.has("as=Table") && params.has("v=v1") && params.has("g=meta.k8s.io");
  });
}

async function optionalJson(req: ApiRequest): Promise<unknown> {
  const body = await readBody(req);
  if (body.toString("utf8").trim() === "") return undefined;
  requireJsonBody(req);
  return parseJson(body);
}

/** Serves one resource request; throws StatusError on any failure (the caller renders it). */
export async function serveResourceRequest(r: ResourceRequest): Promise<void> {
  const { info, backend, reply, query, req } = r;
  const rt = resolveResource(backend, info);
  const ns = info.namespace;
  const name = info.name as string;
  // A CRD with a conversion webhook: each verb runs through it (see registry/crd-conversion-webhook.ts), with a
  // fresh copy of the body per round and the warnings of the last round only.
  const conversion = backend.conversionWebhook?.(rt);
  const target = rt.group === "" ? rt.version : `${rt.group}/${rt.version}`;
  const converted = async <T>(
    deferred: boolean,
    opts: { warnings?: string[] } | undefined,
    fn: () => T | Promise<T>,
  ): Promise<T> => {
    if (!conversion) return fn();
    const before = opts?.warnings ? [...opts.warnings] : undefined;
    return conversion.run(target, deferred, () => {
      if (opts) {
        if (before) opts.warnings = [...before];
        else delete opts.warnings;
      }
      return fn();
    });
  };
  const fresh = <T>(body: T): T => (conversion ? cloneJson(body) : body);
  switch (info.verb) {
    case "get": {
      const resourceVersion = query.get("resourceVersion");
      if (wantsTable(req) && backend.table) {
        const opts = resourceVersion ? { resourceVersion } : {};
        reply.json(200, backend.table(rt, ns, name, opts, query.get("includeObject") || undefined));
        return;
      }
      const getOpts = resourceVersion ? { resourceVersion } : {};
      reply.json(200, await converted(true, undefined, () => backend.get(rt, ns, name, getOpts)));
      return;
    }
    case "list":
      {
        const opts = listOptionsFrom(query);
        if (wantsTable(req) && backend.table) {
          reply.json(200, backend.table(rt, ns, undefined, opts, query.get("includeObject") || undefined));
          return;
        }
        // The backend's listJson fast path concatenates stored item bytes instead of re-serializing.
        if (conversion) reply.json(200, await converted(true, undefined, () => backend.list(rt, ns, opts)));
        else reply.json(200, backend.listJson ? backend.listJson(rt, ns, opts) : backend.list(rt, ns, opts));
      }
      return;
    case "watch":
      r.serveWatch(rt, timeoutSecondsFrom(query), wantsTable(req));
      return;
    case "create": {
      // A POST to a named object's path has no route in kube-apiserver.
      if (info.name !== undefined) throw methodNotRouted();
      const opts = writeOptionsFrom(query, undefined, "CreateOptions");
      defaultFieldManager(opts, req.headers["user-agent"]);
      requireJsonBody(req);
      const { value, duplicates } = parseObjectBody(await readBody(req), rt.kind);
      // Parsed for this request alone: the registry may keep it without a copy.
      const obj = handOverBody(checkBodyAgainstPath(value, info));
      if (duplicates.length > 0) opts.duplicateFields = duplicates;
      const created = await converted(false, opts, () =>
        backend.webhookWrites
          ? backend.webhookWrites.create(rt, ns, fresh(obj), opts)
          : backend.create(rt, ns, fresh(obj), opts),
      );
      reply.warn(...(opts.warnings ?? []));
      reply.json(201, created);
      return;
    }
    case "update": {
      const opts = writeOptionsFrom(query, info.subresource, "UpdateOptions");
      defaultFieldManager(opts, req.headers["user-agent"]);
      requireJsonBody(req);
      const { value, duplicates } = parseObjectBody(await readBody(req), rt.kind);
      // Parsed for this request alone: the registry may keep it without a copy.
      const obj = handOverBody(checkBodyAgainstPath(value, info));
      if (duplicates.length > 0) opts.duplicateFields = duplicates;
      const updated = await converted(false, opts, () =>
        backend.webhookWrites
          ? backend.webhookWrites.update(rt, ns, name, fresh(obj), opts)
          : backend.update(rt, ns, name, fresh(obj), opts),
      );
      reply.warn(...(opts.warnings ?? []));
      reply.json(200, updated);
      return;
    }
    case "patch": {
      const opts = writeOptionsFrom(query, info.subresource, "PatchOptions");
      const type = patchTypeOf(req);
      // Apply needs an explicit fieldManager (the backend says so); other writes default to the User-Agent's.
      if (type !== "application/apply-patch+yaml") {
        defaultFieldManager(opts, req.headers["user-agent"]);
      }
      const raw = await readBody(req);
      const patch = parsePatch(raw, type);
      if (type === "application/json-patch+json") {
        if (!Array.isArray(patch)) throw badRequest("a JSON patch must be an array of operations");
      } else {
        requireObject(patch, "patch");
      }
      const patched = await converted(false, opts, () =>
        backend.webhookWrites
          ? backend.webhookWrites.patch(rt, ns, name, type, fresh(patch), opts)
          : backend.patch(rt, ns, name, type, fresh(patch), opts),
      );
      reply.warn(...(opts.warnings ?? []));
      reply.json(opts.created ? 201 : 200, patched);
      return;
    }
    case "delete": {
      const opts = deleteOptionsFrom(query, await optionalJson(req));
      const warnings: string[] = [];
      const obj = await converted(false, undefined, () => {
        warnings.length = 0;
        return backend.webhookWrites
          ? backend.webhookWrites.delete(rt, ns, name, opts, warnings)
          : backend.delete(rt, ns, name, opts);
      });
      reply.warn(...warnings);
      reply.json(200, wasRemoved(obj) && isBuiltinGroup(rt.group) ? deletedStatus(rt, obj) : obj);
      return;
    }
    case "deletecollection": {
      const body = await optionalJson(req);
      const listOpts = listOptionsFrom(query);
      const deleteOpts = deleteOptionsFrom(query, body);
      const warnings: string[] = [];
      const list = await converted(false, undefined, () => {
        warnings.length = 0;
        return backend.webhookWrites
          ? backend.webhookWrites.deleteCollection(rt, ns, listOpts, deleteOpts, warnings)
          : backend.deleteCollection(rt, ns, listOpts, deleteOpts);
      });
      reply.warn(...warnings);
      reply.json(200, list);
      return;
    }
  }
}

/**
 * The User-Agent's manager name when the request names no fieldManager (`managerOrUserAgent`); the options
 * remember it was filled in, so admission webhooks see the options as the client sent them.
 */
function defaultFieldManager(opts: WriteOptions, userAgent: string | undefined): void {
  if (opts.fieldManager !== undefined) return;
  opts.fieldManager = managerFromUserAgent(userAgent);
  opts.fieldManagerDefaulted = true;
}
