/**
 * Kubernetes `Status` errors. Every failure the embedded server reports is an {@link ApiError} holding the exact
 * `Status` body kube-apiserver would send (shapes from `k8s.io/apimachinery/pkg/api/errors`).
 */

/** One entry of `Status.details.causes`. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** The `metav1.Status` wire object. */
export interface StatusBody {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
  code: number;
}

/** An error that carries a Kubernetes `Status` body and its HTTP code. */
export class ApiError extends Error {
  constructor(readonly status: StatusBody) {
    super(status.message);
    this.name = "ApiError";
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason;
  }
}

/** What a Status' `details` names: the resource (plural) and group of the object, and its name. */
export interface StatusTarget {
  group: string;
  resource: string;
  name?: string;
}

function qualified(t: StatusTarget): string {
  return t.group ? `${t.resource}.${t.group}` : t.resource;
}

/** An ApiError with any code, reason and message (for Status shapes without a dedicated builder). */
export function failure(
  code: number,
  reason: string,
  message: string,
  details?: StatusBody["details"],
): ApiError {
  const status: StatusBody = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  };
  if (details) status.details = details;
  // Go omits an empty reason (StatusReasonUnknown), as kube-apiserver's bare 500s show.
  if (reason === "") delete (status as Partial<StatusBody>).reason;
  return new ApiError(status);
}

function detailsOf(t: StatusTarget): NonNullable<StatusBody["details"]> {
  const d: NonNullable<StatusBody["details"]> = { kind: t.resource };
  if (t.name !== undefined) d.name = t.name;
  if (t.group) d.group = t.group;
  return d;
}

/** 404 NotFound: `<resource> "<name>" not found`. */
export function notFound(t: StatusTarget): ApiError {
  return failure(404, "NotFound", `${qualified(t)} "${t.name ?? ""}" not found`, detailsOf(t));
}

/** 409 AlreadyExists. */
export function alreadyExists(t: StatusTarget): ApiError {
  return failure(409, "AlreadyExists", `${qualified(t)} "${t.name ?? ""}" already exists`, detailsOf(t));
}

/** The optimistic-concurrency message suffix (`OptimisticLockErrorMsg`). */
export const OPTIMISTIC_LOCK_MESSAGE =
  "the object has been modified; please apply your changes to the latest version and try again";

/** 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <why>`; details.kind is the plural. */
export function conflict(t: StatusTarget, why: string = OPTIMISTIC_LOCK_MESSAGE): ApiError {
  return failure(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(t)} "${t.name ?? ""}": ${why}`,
    detailsOf(t),
  );
}

/** 422 Invalid with field causes; `kind` here is the object's Kind, as in `NewInvalid`. */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): ApiError {
  const joined = causes.map((c) => `${c.field ?? ""}: ${c.message ?? ""}`).join(", ");
  // Go's `utilerrors.Aggregate` brackets a list of several errors.
  const list = causes.length > 1 ? `[${joined}]` : joined;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  // Go omits an empty name (invalid ListOptions, DeleteOptions).
  const details: NonNullable<StatusBody["details"]> = { ...(name ? { name } : {}), kind, causes };
  if (group) details.group = group;
  return failure(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${list}`, details);
}

/** 400 BadRequest. */
export function badRequest(message: string): ApiError {
  return failure(400, "BadRequest", message);
}

/** 401 Unauthorized. */
export function unauthorized(message = "Unauthorized"): ApiError {
  return failure(401, "Unauthorized", message);
}

/** 403 Forbidden, optionally with causes (namespace termination uses `NamespaceTerminating`). */
export function forbidden(t: StatusTarget, why: string, causes?: StatusCause[]): ApiError {
  const details = detailsOf(t);
  if (causes) details.causes = causes;
  return failure(403, "Forbidden", `${qualified(t)} "${t.name ?? ""}" is forbidden: ${why}`, details);
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(message: string): ApiError {
  return failure(405, "MethodNotAllowed", message);
}

/** 410 Expired: a resourceVersion older than the retained history. */
export function expired(message: string): ApiError {
  return failure(410, "Expired", message);
}

/** 413 RequestEntityTooLarge. */
export function tooLarge(message: string): ApiError {
  return failure(413, "RequestEntityTooLarge", message);
}

/** 415 UnsupportedMediaType. */
export function unsupportedMediaType(contentType: string): ApiError {
  return failure(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, got ${contentType}`,
  );
}

/** 500 InternalError: anything unexpected becomes this instead of crashing the server. */
export function internalError(message: string): ApiError {
  return failure(500, "InternalError", `Internal error occurred: ${message}`);
}

/** 504 Timeout with `retryAfterSeconds` (resourceVersion too large). */
export function timeout(message: string, retryAfterSeconds = 1): ApiError {
  return failure(504, "Timeout", message, { retryAfterSeconds });
}

/** Any thrown value as an ApiError (unknown errors become 500 InternalError). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return internalError(err instanceof Error ? err.message : String(err));
}
