import { badRequest, failure, type StatusError } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import { cloneJson, isJsonObject, jsonEqual } from "../json.js";
import { compareObjects } from "./compare.js";
import { applyConflictError, conflictsOf } from "./conflicts.js";
import {
  type FieldManagerScope,
  managersOf,
  ownable,
  STRIPPED,
  setManagers,
  takeUpdate,
} from "./field-manager.js";
import type { FieldSet } from "./field-set.js";
import { ListItemError } from "./list-items.js";
import { type ManagerEntry, managerId } from "./managed-fields.js";
import { mergeValues } from "./merge.js";
import { removeFields } from "./remove.js";
import { toFieldSet } from "./to-field-set.js";

/** The manager kube-apiserver credits with an object's fields when it is first applied to untracked. */
const BEFORE_FIRST_APPLY = "before-first-apply";

/** A server-side apply request. */
export interface ApplyRequest {
  /** The live object, or undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The apply configuration (the PATCH body). */
  config: Record<string, unknown>;
  /** `?fieldManager=` (required for apply). */
  manager: string;
  /** `?force=true`: take the conflicting fields from their owners instead of failing. */
  force: boolean;
  scope: FieldManagerScope;
  /** The request's kind, which the configuration must name too. */
  kind: string;
}

/**
 * Server-side apply (kube-apiserver's `FieldManager.Apply` over structured-merge-diff's `Updater.Apply`):
 * 1. the configuration is merged into the live object along the kind's merge schema;
 * 2. the manager's Apply entry becomes exactly the fields the configuration sets;
 * 3. fields the manager applied last time and no longer does are removed, unless another manager owns them;
 * 4. fields another manager owns whose value would change are conflicts: 409 naming each field and its owner,
 *    or, with `force`, they change owner;
 * 5. fields the apply removes leave every manager.
 * An object nobody tracked yet is first credited to `before-first-apply`. Returns the new object with its
 * managedFields; the caller stores it through the usual update (or create) path.
 */
export function applyConfiguration(req: ApplyRequest): KubeObject {
  const { config, scope } = req;
  checkConfiguration(config, scope.apiVersion, req.kind);
  const live: KubeObject = req.live ?? { apiVersion: scope.apiVersion, kind: req.kind, metadata: {} };
  const managers = managersOf(req.live);
  if (managers.size === 0 && req.live !== undefined) {
    takeUpdate({}, req.live, managers, BEFORE_FIRST_APPLY, scope);
  }
  let applied: FieldSet;
  try {
    applied = ownable(toFieldSet(config, scope.type), scope).difference(STRIPPED);
  } catch (err) {
    if (err instanceof ListItemError) throw invalidConfiguration(err.message);
    throw err;
  }
  const entry: ManagerEntry = {
    manager: req.manager,
    operation: "Apply",
    apiVersion: scope.apiVersion,
    fields: applied,
  };
  if (scope.subresource !== "") entry.subresource = scope.subresource;
  const id = managerId(entry);
  const last = managers.get(id);

  const liveBody = withoutManagedFields(live);
  let merged: KubeObject;
  try {
    merged = cloneJson(mergeValues(liveBody, config, scope.type)) as KubeObject;
  } catch (err) {
    if (err instanceof ListItemError) throw invalidConfiguration(err.message);
    throw err;
  }
  const others = [...managers].filter(([other]) => other !== id);
  if (last && !last.fields.isEmpty()) {
    const keep = others.reduce((acc, [, e]) => acc.union(e.fields), applied);
    removeFields(merged, last.fields.difference(keep), keep, scope.type);
  }

  const c = compareObjects(liveBody, merged, scope.type);
  const changed = ownable(c.changed, scope);
  const removed = ownable(c.removed, scope);
  const owned = others
    .map(([oid, e]): [string, ManagerEntry, FieldSet] => [oid, e, e.fields.intersection(changed)])
    .filter(([, , set]) => !set.isEmpty());
  if (owned.length > 0 && !req.force) throw applyConflictError(conflictsOf(owned));
  for (const [oid, e] of others) {
    e.fields = e.fields.difference(changed).difference(removed);
    if (e.fields.isEmpty()) managers.delete(oid);
  }

  const objectChanged = !jsonEqual(liveBody, merged);
  if (objectChanged) entry.time = scope.now;
  else if (last?.time !== undefined) entry.time = last.time;
  if (applied.isEmpty()) managers.delete(id);
  else managers.set(id, entry);
  setManagers(merged, managers);
  return merged;
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

/**
 * The checks kube-apiserver makes of an apply configuration before merging it: of the request's group, version
 * and kind (400 "invalid object type: /v2, Kind=ConfigMap"), without managedFields.
 */
function checkConfiguration(config: Record<string, unknown>, apiVersion: string, kind: string): void {
  if (config.apiVersion !== apiVersion || config.kind !== kind) {
    // The decoder names the type it cannot use as `schema.GroupVersionKind.String()`.
    const sent = typeof config.apiVersion === "string" ? config.apiVersion : "";
    const gv = sent.includes("/") ? sent : `/${sent}`;
    throw badRequest(
      `invalid object type: ${gv}, Kind=${typeof config.kind === "string" ? config.kind : ""}`,
    );
  }
  const meta = config.metadata;
  if (meta !== undefined && meta !== null && !isJsonObject(meta))
    throw badRequest("metadata must be an object");
  if (isJsonObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
    throw badRequest("metadata.managedFields must be nil");
  }
}

/** A configuration its merge schema cannot read (a list item without its keys, a duplicate key): 500, as there. */
function invalidConfiguration(message: string): StatusError {
  return failure(500, "InternalError", `failed to create typed patch object: ${message}`);
}
