/**
 * Owner references: who owns an object (`metadata.ownerReferences`). The garbage collector deletes a dependent
 * once all its owners are gone, and at most one owner may be the *controller* (`controller: true`). Mirrors
 * controller-runtime's `controllerutil` (`SetControllerReference`, `RemoveOwnerReference`,
 * `AlreadyOwnedError`) and apimachinery's `metav1.GetControllerOf` / `IsControlledBy`.
 */
import type { OwnerReference } from "../apimachinery/object.js";

/** An object that can be an owner: it needs apiVersion, kind, name and uid. */
export interface OwnerLike {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string };
}

/** An object whose ownerReferences can be read and edited. */
export interface DependentLike {
  metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerReference[] };
}

/** Thrown when an object already has a controller other than the one trying to adopt it. */
export class AlreadyOwnedError extends Error {
  constructor(
    readonly object: string,
    readonly owner: OwnerReference,
  ) {
    super(`Object ${object} is already owned by another ${owner.kind} controller ${owner.name}`);
    this.name = "AlreadyOwnedError";
  }
}

/** The API group of an `apiVersion` (`apps/v1` -> `apps`, `v1` -> `""`). */
export function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** Same object, judged like controller-runtime's `referSameObject`: group (not version), kind and name. */
function refersTo(ref: OwnerReference, target: OwnerReference): boolean {
  return (
    groupOfApiVersion(ref.apiVersion) === groupOfApiVersion(target.apiVersion) &&
    ref.kind === target.kind &&
    ref.name === target.name
  );
}

/** Builds an ownerReference to `owner`; throws a clear error when a required field is missing. */
export function ownerReferenceTo(
  owner: OwnerLike,
  options: { controller?: boolean; blockOwnerDeletion?: boolean } = {},
): OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind || !name || !uid) {
    throw new Error(
      "an owner needs apiVersion, kind, metadata.name and metadata.uid (read it from the API first)",
    );
  }
  const ref: OwnerReference = { apiVersion, kind, name, uid };
  if (options.controller !== undefined) ref.controller = options.controller;
  if (options.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = options.blockOwnerDeletion;
  return ref;
}

function describeObject(obj: DependentLike): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ""}` : (obj.metadata?.name ?? "");
}

/**
 * Makes `owner` the controller of `obj` (in place): an ownerReference with `controller: true` and
 * `blockOwnerDeletion: true`, replacing any existing reference to the same owner. Refuses (throws
 * {@link AlreadyOwnedError}) when another controller already owns `obj`, and refuses owners the garbage
 * collector would treat as invalid: a namespaced owner in another namespace, or a namespaced owner of a
 * cluster-scoped object (pass `ownerNamespaced: false` for cluster-scoped owners such as Namespaces).
 */
export function setControllerReference(
  owner: OwnerLike,
  obj: DependentLike,
  options: { ownerNamespaced?: boolean } = {},
): void {
  const ref = ownerReferenceTo(owner, { controller: true, blockOwnerDeletion: true });
  const ownerNs = owner.metadata?.namespace ?? "";
  const objNs = obj.metadata?.namespace ?? "";
  const ownerNamespaced = options.ownerNamespaced ?? ownerNs !== "";
  if (ownerNamespaced) {
    if (!objNs)
      throw new Error(
        `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`,
      );
    if (ownerNs !== objNs)
      throw new Error(
        `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objNs}`,
      );
  }
  const existing = getControllerOf(obj);
  if (existing && !refersTo(existing, ref)) throw new AlreadyOwnedError(describeObject(obj), existing);
  upsertOwnerReference(obj, ref);
}

/** Adds `ref`, or replaces the reference to the same owner (group, kind, name). Mutates `obj`. */
export function upsertOwnerReference(obj: DependentLike, ref: OwnerReference): void {
  obj.metadata ??= {};
  const metadata = obj.metadata;
  const refs = metadata.ownerReferences ?? [];
  const index = refs.findIndex((r) => refersTo(r, ref));
  metadata.ownerReferences = index < 0 ? [...refs, ref] : refs.map((r, i) => (i === index ? ref : r));
}

/** The ownerReference with `controller: true`, if any (`metav1.GetControllerOf`). */
export function getControllerOf(obj: DependentLike): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** True when `owner` (by uid) is the controller of `obj` (`metav1.IsControlledBy`). */
export function isControlledBy(obj: DependentLike, owner: OwnerLike): boolean {
  const uid = owner.metadata?.uid;
  return uid !== undefined && getControllerOf(obj)?.uid === uid;
}

/**
 * Removes every reference to `owner` from `obj` (in place): by uid when the owner has one, otherwise by
 * group, kind and name. Returns whether anything changed.
 */
export function removeOwnerReference(obj: DependentLike, owner: OwnerLike | OwnerReference): boolean {
  const refs = obj.metadata?.ownerReferences;
  if (!refs || !obj.metadata) return false;
  const uid = "uid" in owner ? owner.uid : owner.metadata?.uid;
  const target = "uid" in owner ? undefined : owner;
  const keep = refs.filter((ref) => {
    if (uid) return ref.uid !== uid;
    return !(
      target &&
      ref.kind === target.kind &&
      ref.name === target.metadata?.name &&
      groupOfApiVersion(ref.apiVersion) === groupOfApiVersion(target.apiVersion ?? "")
    );
  });
  if (keep.length === refs.length) return false;
  obj.metadata.ownerReferences = keep;
  return true;
}
