/**
 * The server's side of the Status error family. The errors themselves and their constructors live in the floor
 * (`src/apimachinery/errors.ts`, apimachinery's `pkg/api/errors`); what stays here is what only a server says:
 * the wire-exact texts of its own handlers, registry and storage layer (each constructor names where
 * kube-apiserver says it), and the rule that nothing but a Status ever leaves a handler.
 */
import {
  badRequest,
  conflict,
  failure,
  forbidden,
  internalError,
  invalid,
  type StatusError,
  toStatusError,
} from "../../apimachinery/errors.js";
import { JsonDepthError, KUBE_MAX_JSON_DEPTH, MAX_BODY_DEPTH } from "./json.js";

/** 415 UnsupportedMediaType, worded as kube-apiserver's content negotiation words it. */
export function unsupportedMediaType(contentType: string): StatusError {
  return failure(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, got ${contentType}`,
  );
}

/**
 * Any thrown value as the Status a handler answers with: a {@link StatusError} as is (see `toStatusError`),
 * anything else as 500 InternalError, so the server reports a Status instead of crashing.
 */
export function responseError(err: unknown): StatusError {
  // A copy that met a value nested past the limit (see json.ts): bad input, not a server fault.
  if (err instanceof JsonDepthError) return badRequest(`the object is nested too deeply: ${err.message}`);
  return toStatusError(err) ?? internalError(err instanceof Error ? err.message : String(err));
}

/** The target of a Status: the group, resource (plural) and name of the object a request was about. */
export interface ObjectTarget {
  group: string;
  resource: string;
  name: string;
}

/**
 * 500 from the storage layer: a create carrying a `metadata.resourceVersion` (etcd3 store's `Create`, checked
 * after validation and before the existence check).
 */
export function resourceVersionSetOnCreate(): StatusError {
  return failure(500, "", "resourceVersion should not be set on objects to be created");
}

/** 500 from the storage layer: an update whose `metadata.resourceVersion` does not parse as a revision. */
export function unparsableUpdateResourceVersion(rv: string): StatusError {
  return failure(500, "", `strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
}

/** 422: an update without `metadata.resourceVersion` of a kind that forbids unconditional updates. */
export function resourceVersionRequired(kind: string, group: string, name: string): StatusError {
  return invalid(kind, group, name, [
    {
      reason: "FieldValueInvalid",
      field: "metadata.resourceVersion",
      message: "Invalid value: 0x0: must be specified for an update",
    },
  ]);
}

/**
 * 409: a PUT body carrying another object's uid, in the storage layer's words (`Precondition failed`); `key`
 * is the etcd key (`/registry/<resource>/<namespace>/<name>`, with the group for custom resources).
 */
export function uidPreconditionFailed(
  target: ObjectTarget,
  key: string,
  sent: string,
  stored: string,
): StatusError {
  return conflict(
    target,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${sent}, UID in object meta: ${stored}`,
  );
}

/**
 * 409: a DELETE whose precondition (`Preconditions.Check` in the storage layer) does not match the stored
 * object; it names the Kind, not the resource.
 */
export function deletePreconditionFailed(
  kind: string,
  group: string,
  name: string,
  field: "UID" | "ResourceVersion",
  want: string,
  have: string,
): StatusError {
  const hint =
    field === "UID"
      ? "The object might have been deleted and then recreated"
      : "The object might have been modified";
  return failure(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${kind} "${name}": the ${field} in the precondition (${want}) does not match the ${field} in record (${have}). ${hint}`,
    { name, kind, ...(group ? { group } : {}) },
  );
}

/** 400: a DeleteOptions field of the wrong JSON type, as the decoder reports it. */
export function undecodableDeleteOptions(field: string): StatusError {
  return badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: invalid ${field}`);
}

/** 400: the body's `metadata.name` is not the name in the URL. */
export function nameMismatch(bodyName: string, urlName: string): StatusError {
  return badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${urlName})`);
}

/** 400: the body's `metadata.namespace` is not the namespace in the URL. */
export function namespaceMismatch(): StatusError {
  return badRequest("the namespace of the provided object does not match the namespace sent on the request");
}

/** 409: a DELETE of a namespace that is Terminating and still has spec finalizers (namespace REST storage). */
export function namespaceTerminatingConflict(name: string): StatusError {
  return conflict(
    { group: "", resource: "namespaces", name },
    "The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.",
  );
}

/** 403 from NamespaceLifecycle: a DELETE of an immortal namespace. */
export function immortalNamespace(name: string): StatusError {
  return forbidden({ group: "", resource: "namespaces", name }, "this namespace may not be deleted");
}

/** 403 from NamespaceLifecycle: a create in a namespace that is being deleted (cause `NamespaceTerminating`). */
export function namespaceTerminatingCreate(target: ObjectTarget, namespace: string): StatusError {
  return forbidden(
    target,
    `unable to create new content in namespace ${namespace} because it is being terminated`,
    [
      {
        reason: "NamespaceTerminating",
        message: `namespace ${namespace} is being terminated`,
        field: "metadata.namespace",
      },
    ],
  );
}

/**
 * 405 for a method the URL does not route (a POST to a named object's path): kube-apiserver's mux answers
 * `MethodNotAllowed` with empty details.
 */
export function methodNotRouted(): StatusError {
  return failure(
    405,
    "MethodNotAllowed",
    "the server does not allow this method on the requested resource",
    {},
  );
}

/** 400 from strict decoding of a create or update body (`?fieldValidation=Strict`). */
export function strictDecodingError(kind: string, version: string, detail: string): StatusError {
  return badRequest(
    `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${detail}`,
  );
}

/**
 * 422 from strict decoding of a patched object (`?fieldValidation=Strict` on a PATCH): the cause is the field
 * `patch`, its value the patched object's JSON, as kube-apiserver's patch handler reports it.
 */
export function strictPatchError(patched: unknown, detail: string): StatusError {
  const message = `Invalid value: ${JSON.stringify(JSON.stringify(patched))}: ${detail}`;
  return failure(422, "Invalid", ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: "FieldValueInvalid", message, field: "patch" }],
  });
}

/**
 * 422 for a patch whose result nests deeper than the server decodes (a JSON patch can `add` a deep value at the
 * end of a deep path): kube-apiserver decodes the patched JSON again and reports that decode error as an invalid
 * `patch` field. The patched object itself is left out of the message here (it is the deep thing).
 */
export function patchedTooDeep(): StatusError {
  const message = `Invalid value: "the patched object": json parse error: exceeded max depth of ${MAX_BODY_DEPTH} (the embedded API server's limit; kube-apiserver's is ${KUBE_MAX_JSON_DEPTH})`;
  return failure(422, "Invalid", ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: "FieldValueInvalid", message, field: "patch" }],
  });
}
