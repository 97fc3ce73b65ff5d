import { badRequest } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import type { Clock } from "../../../clock/clock.js";
import { applyConfiguration } from "../fieldmanager/apply.js";
import type { WriteOptions } from "../types.js";
import { FieldErrors } from "../validation/field-errors.js";
import { fieldManagerScope } from "./field-manager-scope.js";
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

/** What an apply needs of the registry store: the live object and its create and update paths. */
export interface ApplyRequest {
  opts: WriteOptions;
  /** The live object as the client's version shows it, or undefined when there is none. */
  live: KubeObject | undefined;
  /** Throws 404 when the object does not exist. */
  exists(): void;
  /** The store's create, with the managedFields the apply computed. */
  create(obj: KubeObject, opts: WriteOptions & { applied: boolean }): KubeObject;
  /** The store's update of a patched object, with the managedFields the apply computed. */
  update(obj: KubeObject, opts: WriteOptions & { applied: boolean; fromPatch: boolean }): KubeObject;
}

/**
 * A server-side apply PATCH (`application/apply-patch+yaml`), as kube-apiserver's patch handler runs one: the
 * configuration is applied to the live object (as the client's version shows it), or to an empty one when there
 * is none (apply creates, and the response is 201), and the result goes through the ordinary update or create
 * path with the managedFields the apply computed.
 */
export function applyWrite(
  clock: Clock,
  served: ServedResource,
  name: string,
  config: Record<string, unknown>,
  request: ApplyRequest,
): KubeObject {
  const { opts, live } = request;
  validatePatchOptions(true, opts);
  // A subresource of a missing object is 404, as for any other write to it.
  if (live === undefined && opts.subresource !== undefined) request.exists();
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
    const created = request.create(merged, { ...opts, applied: true });
    opts.created = true;
    return created;
  }
  return request.update(merged, { ...opts, fromPatch: true, applied: true });
}
