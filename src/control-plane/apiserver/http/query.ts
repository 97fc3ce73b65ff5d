/**
 * Query parameters of API requests (`metav1.ListOptions`, `DeleteOptions`, `CreateOptions`...), parsed and
 * checked strictly: a malformed number, boolean or enum is a 400 BadRequest naming the parameter, as
 * kube-apiserver's parameter codec reports conversion errors. Unknown parameters are ignored, as there.
 */
import { badRequest } from "../../../apimachinery/errors.js";
import { FIELD_VALIDATION_VALUES } from "../registry/field-validation.js";
import type { DeleteOptions, ListOptions, WatchOptions, WriteOptions } from "../types.js";
import { FieldErrors } from "../validation/field-errors.js";

function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length === 0) return undefined;
  return all[all.length - 1];
}

/** A boolean parameter: `true`/`1` or `false`/`0` (an empty value means true, like `?watch`). */
export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (v === "" || v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)} (want true or false)`);
}

/**
 * `limit`: any integer, as Go's `strconv.ParseInt` reads it (zero or negative means no limit); anything else is
 * 400 with ParseInt's message.
 */
function limitParam(q: URLSearchParams): number | undefined {
  const v = single(q, "limit");
  if (v === undefined || v === "") return undefined;
  if (!/^[+-]?\d{1,15}$/.test(v))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

/** A non-negative integer parameter. */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined || v === "") return undefined;
  if (!/^\d{1,15}$/.test(v))
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)} (want an integer >= 0)`);
  return Number(v);
}

function stringParam(q: URLSearchParams, name: string): string | undefined {
  const v = single(q, name);
  return v === undefined || v === "" ? undefined : v;
}

/** `labelSelector`, `fieldSelector`, `limit`, `continue`, `resourceVersion`, `resourceVersionMatch`. */
export function listOptionsFrom(q: URLSearchParams): ListOptions {
  const opts: ListOptions = {};
  const labelSelector = stringParam(q, "labelSelector");
  if (labelSelector !== undefined) opts.labelSelector = labelSelector;
  const fieldSelector = stringParam(q, "fieldSelector");
  if (fieldSelector !== undefined) opts.fieldSelector = fieldSelector;
  const limit = limitParam(q);
  if (limit !== undefined && limit > 0) opts.limit = limit;
  const cont = stringParam(q, "continue");
  if (cont !== undefined) opts.continue = cont;
  const rv = single(q, "resourceVersion");
  if (rv !== undefined) opts.resourceVersion = rv;
  // Any value decodes; ValidateListOptions rejects an unsupported one (422), see storage/list-revision.ts.
  const match = stringParam(q, "resourceVersionMatch");
  if (match !== undefined) opts.resourceVersionMatch = match as ListOptions["resourceVersionMatch"];
  return opts;
}

/** List options plus `allowWatchBookmarks` and `sendInitialEvents`. */
export function watchOptionsFrom(q: URLSearchParams): WatchOptions {
  const { labelSelector, fieldSelector, resourceVersion, resourceVersionMatch } = listOptionsFrom(q);
  const opts: WatchOptions = {};
  if (labelSelector !== undefined) opts.labelSelector = labelSelector;
  if (fieldSelector !== undefined) opts.fieldSelector = fieldSelector;
  if (resourceVersion !== undefined) opts.resourceVersion = resourceVersion;
  if (resourceVersionMatch !== undefined) opts.resourceVersionMatch = resourceVersionMatch;
  const bookmarks = boolParam(q, "allowWatchBookmarks");
  if (bookmarks !== undefined) opts.allowWatchBookmarks = bookmarks;
  const initial = boolParam(q, "sendInitialEvents");
  if (initial !== undefined) opts.sendInitialEvents = initial;
  return opts;
}

/** `timeoutSeconds` of a watch (undefined when absent). */
export function timeoutSecondsFrom(q: URLSearchParams): number | undefined {
  return intParam(q, "timeoutSeconds");
}

/** `dryRun=All` (the only value kube-apiserver accepts). */
function dryRunFrom(q: URLSearchParams): boolean {
  const values = q.getAll("dryRun");
  for (const v of values)
    if (v !== "All") throw badRequest(`invalid dryRun value ${JSON.stringify(v)} (want All)`);
  return values.length > 0;
}

/** `dryRun`, `fieldManager` (plus the subresource from the path). */
export function writeOptionsFrom(
  q: URLSearchParams,
  subresource?: string,
  optionsKind: "CreateOptions" | "UpdateOptions" | "PatchOptions" = "UpdateOptions",
): WriteOptions {
  const opts: WriteOptions = { warnings: [] };
  if (subresource !== undefined) opts.subresource = subresource;
  if (dryRunFrom(q)) opts.dryRun = true;
  const validation = q.get("fieldValidation");
  if (validation !== null) {
    if (!FIELD_VALIDATION_VALUES.includes(validation)) {
      new FieldErrors()
        .notSupported("fieldValidation", validation, FIELD_VALIDATION_VALUES)
        .throwIfAny(optionsKind, "meta.k8s.io", "");
    }
    if (validation !== "") opts.fieldValidation = validation as "Strict" | "Warn" | "Ignore";
  }
  const manager = stringParam(q, "fieldManager");
  if (manager !== undefined) {
    if (manager.length > 128) throw badRequest("fieldManager must be at most 128 characters");
    opts.fieldManager = manager;
  }
  const force = q.get("force");
  if (force !== null) opts.force = force === "true" || force === "1";
  return opts;
}

/**
 * DeleteOptions from the query (`propagationPolicy`, `orphanDependents`, `gracePeriodSeconds`, `dryRun`),
 * overlaid by a JSON body when the client sent one (client-node and kubectl send a body).
 */
export function deleteOptionsFrom(q: URLSearchParams, body: unknown): DeleteOptions {
  const opts: DeleteOptions = {};
  // Any value decodes; the backend validates it (422 Invalid DeleteOptions, `ValidateDeleteOptions`).
  const policy = stringParam(q, "propagationPolicy");
  if (policy !== undefined) opts.propagationPolicy = policy as DeleteOptions["propagationPolicy"];
  const orphan = boolParam(q, "orphanDependents");
  if (orphan !== undefined) opts.orphanDependents = orphan;
  const grace = intParam(q, "gracePeriodSeconds");
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  if (dryRunFrom(q)) opts.dryRun = ["All"];
  if (body === undefined) return opts;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("DeleteOptions must be a JSON object");
  }
  const b = body as Record<string, unknown>;
  if (b.kind !== undefined && b.kind !== "DeleteOptions") {
    throw badRequest(`expected kind DeleteOptions in the request body, got ${JSON.stringify(b.kind)}`);
  }
  if (b.propagationPolicy !== undefined && b.propagationPolicy !== null) {
    if (typeof b.propagationPolicy !== "string") {
      throw badRequest(`invalid propagationPolicy ${JSON.stringify(b.propagationPolicy)}`);
    }
    opts.propagationPolicy = b.propagationPolicy as DeleteOptions["propagationPolicy"];
  }
  if (typeof b.orphanDependents === "boolean") opts.orphanDependents = b.orphanDependents;
  if (typeof b.gracePeriodSeconds === "number") opts.gracePeriodSeconds = b.gracePeriodSeconds;
  if (Array.isArray(b.dryRun) && b.dryRun.length > 0) opts.dryRun = b.dryRun.map(String);
  const pre = b.preconditions;
  if (pre !== undefined && pre !== null) {
    if (typeof pre !== "object" || Array.isArray(pre)) throw badRequest("preconditions must be an object");
    const p = pre as Record<string, unknown>;
    const preconditions: NonNullable<DeleteOptions["preconditions"]> = {};
    if (typeof p.uid === "string") preconditions.uid = p.uid;
    if (typeof p.resourceVersion === "string") preconditions.resourceVersion = p.resourceVersion;
    opts.preconditions = preconditions;
  }
  return opts;
}
