import type { FieldManagerScope } from "../fieldmanager/field-manager.js";
import { builtinMergeType, crdMergeType, DEDUCED, type MergeType } from "../fieldmanager/merge-schema.js";
import { apiVersionOf } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";

const types = new WeakMap<ServedResource, MergeType>();

/**
 * The merge type of a served resource, built once per served version: a built-in kind's from the generated
 * schema data, a custom resource's from its CRD version's structural schema (a new CRD version is a new
 * served resource, so a schema change is picked up).
 */
export function mergeTypeOf(served: ServedResource): MergeType {
  let t = types.get(served);
  if (!t) {
    t =
      served.crd !== undefined
        ? crdMergeType(served.openAPIV3Schema)
        : (builtinMergeType(apiVersionOf(served.type), served.type.kind) ?? DEDUCED);
    types.set(served, t);
  }
  return t;
}

/** The field manager's view of a write to `served` (or its subresource) at `now`. */
export function fieldManagerScope(
  served: ServedResource,
  subresource: string | undefined,
  now: string,
): FieldManagerScope {
  return {
    type: mergeTypeOf(served),
    apiVersion: apiVersionOf(served.type),
    subresource: subresource ?? "",
    hasStatus: served.strategy.hasStatus,
    now,
  };
}
