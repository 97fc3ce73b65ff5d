import type { KubeObject } from "../../../apimachinery/object.js";
import { compareObjects } from "./compare.js";
import { FieldSet } from "./field-set.js";
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  ManagedFieldsError,
  type ManagerEntry,
  type Managers,
  managerId,
} from "./managed-fields.js";
import type { MergeType } from "./merge-schema.js";

/** What the field manager needs to know about the resource written. */
export interface FieldManagerScope {
  /** The merge type of the kind (built-in schema data or the CRD's structural schema). */
  readonly type: MergeType;
  /** The group/version the request used (`apps/v1`): the apiVersion of Update entries. */
  readonly apiVersion: string;
  /** `""` for the main resource, `"status"` for the status subresource. */
  readonly subresource: string;
  /** The kind has a status subresource: the main resource's writes never own `status`, and vice versa. */
  readonly hasStatus: boolean;
  /** RFC 3339 time of the write. */
  readonly now: string;
}

/** Update managers kept before the oldest are merged into `ancient-changes` (`DefaultMaxUpdateManagers`). */
const MAX_UPDATE_MANAGERS = 10;

/** Fields never owned (`stripMetaManager`): the object's identity and the server's own metadata. */
export const STRIPPED = FieldSet.empty()
  .insert(["f:apiVersion"])
  .insert(["f:kind"])
  .insert(["f:metadata"])
  .insert(["f:metadata", "f:name"])
  .insert(["f:metadata", "f:namespace"])
  .insert(["f:metadata", "f:creationTimestamp"])
  .insert(["f:metadata", "f:selfLink"])
  .insert(["f:metadata", "f:uid"])
  .insert(["f:metadata", "f:clusterName"])
  .insert(["f:metadata", "f:generation"])
  .insert(["f:metadata", "f:managedFields"])
  .insert(["f:metadata", "f:resourceVersion"]);

/**
 * The fields a write through this scope may own (the strategies' reset fields): the main resource of a kind
 * with a status subresource never owns `status`, the status subresource never owns `spec`.
 */
export function ownable(set: FieldSet, scope: FieldManagerScope): FieldSet {
  if (scope.subresource === "status") return set.withoutField("spec");
  if (scope.hasStatus && scope.subresource === "") return set.withoutField("status");
  return set;
}

/** The managers recorded on an object; a stored object never holds undecodable ones, so errors read as none. */
export function managersOf(obj: KubeObject | undefined): Managers {
  try {
    return decodeManagedFields(obj?.metadata?.managedFields);
  } catch (err) {
    if (err instanceof ManagedFieldsError) return new Map();
    throw err;
  }
}

/** Writes the managers into `obj.metadata.managedFields` (removing the field when there is none). */
export function setManagers(obj: KubeObject, managers: Managers): void {
  if (!obj.metadata) obj.metadata = {};
  const meta = obj.metadata;
  const encoded = encodeManagedFields(managers);
  if (encoded === undefined) delete meta.managedFields;
  else meta.managedFields = encoded;
}

/**
 * The managers a non-apply write starts from (`decodeLiveOrNew`): a subresource write always keeps the live
 * object's; otherwise the client's own managedFields when it sent valid, non-empty ones, none when it sent an
 * empty list (a reset), and the live object's when it sent none or garbage.
 */
function startingManagers(
  live: KubeObject | undefined,
  next: KubeObject,
  scope: FieldManagerScope,
): Managers {
  if (scope.subresource !== "") return managersOf(live);
  const sent = next.metadata?.managedFields;
  if (isResetManagedFields(sent)) return new Map();
  try {
    const managers = decodeManagedFields(sent);
    if (managers.size > 0) return managers;
  } catch (err) {
    if (!(err instanceof ManagedFieldsError)) throw err;
  }
  return managersOf(live);
}

/**
 * Records a create, update or non-apply patch in `next.metadata.managedFields`, as kube-apiserver's field
 * manager does for every write (`FieldManager.Update`): the fields that the write added or changed become the
 * manager's (an Update entry per manager, apiVersion and subresource, merged with its earlier ones, time set
 * when it changed something) and are taken from any other manager; removed fields leave every manager.
 * `live` is undefined for a create. An existing object without managedFields stays untracked
 * (`skipNonAppliedManager`) until someone applies.
 */
export function recordUpdate(
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  scope: FieldManagerScope,
): void {
  const managers = startingManagers(live, next, scope);
  if (next.metadata) delete next.metadata.managedFields;
  if (managers.size === 0 && live !== undefined) return;
  takeUpdate(live ?? {}, next, managers, manager, scope);
  capUpdateManagers(managers);
  setManagers(next, managers);
}

/**
 * Gives `manager` (operation Update) the fields `next` added or changed relative to `live`, taking them from
 * every other manager, and drops removed fields from every manager (structured-merge-diff's `Updater.Update`
 * with force, then `managedFieldsUpdater`'s merge into the manager's earlier Update entry).
 */
export function takeUpdate(
  live: KubeObject,
  next: KubeObject,
  managers: Managers,
  manager: string,
  scope: FieldManagerScope,
): void {
  const c = compareObjects(live, next, scope.type);
  const changed = ownable(c.changed, scope);
  const removed = ownable(c.removed, scope);
  for (const [id, e] of managers) {
    e.fields = e.fields.difference(changed).difference(removed);
    if (e.fields.isEmpty()) managers.delete(id);
  }
  const taken = changed.difference(STRIPPED);
  if (taken.isEmpty()) return;
  const entry: ManagerEntry = {
    manager: manager === "" ? "unknown" : manager,
    operation: "Update",
    apiVersion: scope.apiVersion,
    time: scope.now,
    fields: taken,
  };
  if (scope.subresource !== "") entry.subresource = scope.subresource;
  const id = managerId(entry);
  const previous = managers.get(id);
  if (previous) entry.fields = previous.fields.union(taken);
  managers.set(id, entry);
}

/**
 * At most {@link MAX_UPDATE_MANAGERS} Update entries (`capManagersManager`): the oldest are merged, per
 * apiVersion, into an `ancient-changes` entry.
 */
function capUpdateManagers(managers: Managers): void {
  const updaters = [...managers.entries()].filter(([, e]) => e.operation === "Update");
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort(([ia, a], [ib, b]) => {
    const ta = a.time ? Date.parse(a.time) : 0;
    const tb = b.time ? Date.parse(b.time) : 0;
    return ta !== tb ? ta - tb : ia < ib ? -1 : 1;
  });
  let count = updaters.length;
  const firstOfVersion = new Map<string, string>();
  for (const [id, e] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, id);
      continue;
    }
    const bucket: ManagerEntry = {
      manager: "ancient-changes",
      operation: "Update",
      apiVersion: e.apiVersion,
      fields: e.fields,
    };
    const bucketId = managerId(bucket);
    const existing = managers.get(bucketId) ?? managers.get(first);
    if (existing && !managers.has(bucketId)) managers.delete(first);
    bucket.fields = existing ? existing.fields.union(e.fields) : e.fields;
    if (e.time !== undefined) bucket.time = e.time;
    managers.delete(id);
    managers.set(bucketId, bucket);
    count--;
  }
}
