import { badRequest } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import type { Clock } from "../../../clock/clock.js";
import { applyConfiguration } from "../fieldmanager/apply.js";
import { fieldManagerScope } from "../fieldmanager/resource-scope.js";
import type { WriteOptions } from "../types.js";
import { FieldErrors } from "../validation/field-errors.js";
import type { GenericStore } from "./generic-store.js";
import type { ServedResource } from "./served-resource.js";
import { rfc3339 } from "./time.js";

/**
 * `PatchOptions` validation (`ValidatePatchOptions`): an apply needs a fieldManager, and `force` belongs to
 * apply only; both are 422 Invalid PatchOptions.
 */
export function validatePatchOptions(apply: boolean, opts: WriteOptions): void {
  const errs = new FieldErrors();
  if (apply && !opts.fieldManager) errs.required("fieldManager", "is required for apply patch");
  if (!apply && opts.force !== undefined) errs.forbidden("force", "may not be specified for non-apply patch");
  errs.throwIfAny("PatchOptions", "meta.k8s.io", "");
}

/**
 * A server-side apply PATCH (`application/apply-patch+yaml`), as kube-apiserver's patch handler runs one: the
 * configuration is applied to the live object (as the client's version shows it), or to an empty one when there
 * is none (apply creates, and the response is 201), and the result goes through the ordinary update or create
 * path with the managedFields the apply computed.
 */
export function applyWrite(
  writes: GenericStore,
  clock: Clock,
  served: ServedResource,
  namespace: string | undefined,
  name: string,
  config: Record<string, unknown>,
  request: { opts: WriteOptions; live: KubeObject | undefined },
): KubeObject {
  const { opts, live } = request;
  validatePatchOptions(true, opts);
  // A subresource of a missing object is 404, as for any other write to it.
  if (live === undefined && opts.subresource !== undefined) writes.current(served, namespace, name);
  const merged = applyConfiguration({
    live,
    config,
    manager: opts.fieldManager ?? "",
    force: opts.force ?? false,
    scope: fieldManagerScope(served, opts.subresource, rfc3339(clock.now())),
    kind: served.type.kind,
  });
  const mergedName = merged.metadata?.name ?? "";
  if (mergedName !== name) {
    throw badRequest(`the name of the object (${mergedName}) does not match the name on the URL (${name})`);
  }
  if (live === undefined) {
    const created = writes.create(served, namespace, merged, { ...opts, applied: true });
    opts.created = true;
    return created;
  }
  return writes.update(served, namespace, name, merged, { ...opts, fromPatch: true, applied: true });
}
