/**
 * Kubernetes `Status` errors, one family for both sides of the wire (apimachinery's `pkg/api/errors`).
 *
 * - The embedded server throws a {@link StatusError} built by one of the constructors below ({@link notFound},
 *   {@link conflict}, {@link invalid}, ...) and renders its `status` as the response body, exactly the `Status`
 *   kube-apiserver would send.
 * - The client turns whatever @kubernetes/client-node reports (an `ApiException` with the body as text, a watch
 *   `Error` with `statusCode`, an `ERROR` event inside a 200 watch stream) back into a {@link StatusError} with
 *   {@link toStatusError}, and asks the predicates ({@link isExpired}, {@link isConflict}, ...) what it means.
 *
 * A 410 is always an {@link ExpiredError}, whichever side built it: a reflector answers it with a relist.
 */

/** One entry of `Status.details.causes` (`metav1.StatusCause`). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `metav1.StatusDetails`: what the failure is about. `kind` is the resource (plural) for most reasons. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/**
 * The `metav1.Status` wire object. Every field is optional because a client reads whatever a server sent; the
 * constructors in this module always fill `kind`, `apiVersion`, `metadata`, `status`, `message` and `code`.
 */
export interface Status {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string; continue?: string };
  status?: "Success" | "Failure" | string;
  message?: string;
  /** Go omits an empty reason (`StatusReasonUnknown`). */
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** An API failure carrying the `Status` the server sent (apimachinery's `errors.StatusError`). */
export class StatusError extends Error {
  /** The HTTP code (`status.code`), 0 when the Status has none. */
  readonly code: number;
  /** The machine-readable reason (`NotFound`, `Conflict`, `Expired`, ...), "" when the Status has none. */
  readonly reason: string;

  constructor(readonly status: Status) {
    super(status.message || `${status.reason || "Failure"} (HTTP ${status.code ?? "?"})`);
    this.name = "StatusError";
    this.code = status.code ?? 0;
    this.reason = status.reason ?? "";
  }
}

/**
 * HTTP 410: the requested resourceVersion is older than the server's retained history (reason `Expired`, or
 * `Gone` from servers <= 1.17). A reflector answers it with a relist.
 */
export class ExpiredError extends StatusError {
  constructor(status: Status) {
    super(status);
    this.name = "ExpiredError";
  }
}

/** The typed error for a `Status`: {@link ExpiredError} for 410, {@link StatusError} otherwise. */
export function statusToError(status: Status): StatusError {
  return status.code === 410 ? new ExpiredError(status) : new StatusError(status);
}

function parseStatusText(body: unknown): Status | undefined {
  if (body && typeof body === "object") return body as Status;
  if (typeof body !== "string" || !body.trim().startsWith("{")) return undefined;
  try {
    return JSON.parse(body) as Status;
  } catch {
    return undefined;
  }
}

/**
 * The one normaliser: anything thrown or reported that carries an HTTP status, as a {@link StatusError}.
 * Understands a `StatusError` (returned as is), a bare `Status` object (`kind: "Status"`), client-node's
 * `ApiException` (numeric `code`, `Status` body as text) and a watch `Error` with `statusCode`. Returns
 * undefined for anything else (transport errors such as connection refused, programming errors).
 */
export function toStatusError(err: unknown): StatusError | undefined {
  if (err instanceof StatusError) return err;
  if (!err || typeof err !== "object") return undefined;
  const e = err as {
    code?: unknown;
    statusCode?: unknown;
    body?: unknown;
    kind?: unknown;
    message?: unknown;
  };
  if (e.kind === "Status") return statusToError(e as Status);
  const code =
    typeof e.statusCode === "number" ? e.statusCode : typeof e.code === "number" ? e.code : undefined;
  if (code === undefined) return undefined;
  const parsed = parseStatusText(e.body);
  const message = typeof e.message === "string" ? e.message : undefined;
  return statusToError({ ...parsed, code, message: parsed?.message ?? message });
}

function codeOf(err: unknown): number | undefined {
  return toStatusError(err)?.code;
}

/** True for 404 NotFound (`errors.IsNotFound`), in any shape {@link toStatusError} understands. */
export function isNotFound(err: unknown): boolean {
  return codeOf(err) === 404;
}

/** True for 409 with reason `Conflict` (`errors.IsConflict`): an optimistic-concurrency loss, retry later. */
export function isConflict(err: unknown): boolean {
  const e = toStatusError(err);
  return e !== undefined && e.code === 409 && e.reason === "Conflict";
}

/** True for 409 with reason `AlreadyExists` (`errors.IsAlreadyExists`). */
export function isAlreadyExists(err: unknown): boolean {
  const e = toStatusError(err);
  return e !== undefined && e.code === 409 && e.reason === "AlreadyExists";
}

/** True for 410 Expired/Gone (`errors.IsResourceExpired` / `IsGone`). */
export function isExpired(err: unknown): boolean {
  return codeOf(err) === 410;
}

/** True for a "too large resource version" answer (504 with cause `ResourceVersionTooLarge`). */
export function isTooLargeResourceVersion(err: unknown): boolean {
  const e = toStatusError(err);
  if (!e) return false;
  const causes = e.status.details?.causes ?? [];
  return (
    causes.some((c) => c.reason === "ResourceVersionTooLarge") ||
    /too large resource version/i.test(e.message)
  );
}

/** True for HTTP 429 Too Many Requests (`errors.IsTooManyRequests`). */
export function isTooManyRequests(err: unknown): boolean {
  return codeOf(err) === 429;
}

/** True when the server could not be reached at all (`ECONNREFUSED`), directly or as an error's cause. */
export function isConnectionRefused(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; cur && typeof cur === "object" && depth < 4; depth++) {
    const c = cur as { code?: unknown; errno?: unknown; cause?: unknown };
    if (c.code === "ECONNREFUSED" || c.errno === "ECONNREFUSED") return true;
    cur = c.cause;
  }
  return false;
}

// --- Constructors: the Status bodies kube-apiserver sends (apimachinery's `errors.New*`). ---

/** What a Status' `details` names: the resource (plural) and group of the object, and its name. */
export interface StatusTarget {
  group: string;
  resource: string;
  name?: string;
}

function qualified(t: StatusTarget): string {
  return t.group ? `${t.resource}.${t.group}` : t.resource;
}

/** A failure with any code, reason and message (for Status shapes without a dedicated constructor). */
export function failure(code: number, reason: string, message: string, details?: StatusDetails): StatusError {
  const status: Status = {
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
  if (reason === "") delete status.reason;
  return statusToError(status);
}

function detailsOf(t: StatusTarget): StatusDetails {
  const d: StatusDetails = { kind: t.resource };
  if (t.name !== undefined) d.name = t.name;
  if (t.group) d.group = t.group;
  return d;
}

/** 404 NotFound: `<resource> "<name>" not found` (`errors.NewNotFound`). */
export function notFound(t: StatusTarget): StatusError {
  return failure(404, "NotFound", `${qualified(t)} "${t.name ?? ""}" not found`, detailsOf(t));
}

/** 409 AlreadyExists (`errors.NewAlreadyExists`). */
export function alreadyExists(t: StatusTarget): StatusError {
  return failure(409, "AlreadyExists", `${qualified(t)} "${t.name ?? ""}" already exists`, detailsOf(t));
}

/** The optimistic-concurrency message suffix (`OptimisticLockErrorMsg`). */
export const OPTIMISTIC_LOCK_MESSAGE =
  "the object has been modified; please apply your changes to the latest version and try again";

/**
 * 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <why>`; details.kind is the plural
 * (`errors.NewConflict`).
 */
export function conflict(t: StatusTarget, why: string = OPTIMISTIC_LOCK_MESSAGE): StatusError {
  return failure(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(t)} "${t.name ?? ""}": ${why}`,
    detailsOf(t),
  );
}

/** 422 Invalid with field causes; `kind` here is the object's Kind, as in `errors.NewInvalid`. */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
  const joined = causes.map((c) => `${c.field ?? ""}: ${c.message ?? ""}`).join(", ");
  // Go's `utilerrors.Aggregate` brackets a list of several errors.
  const list = causes.length > 1 ? `[${joined}]` : joined;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  // Go omits an empty name (invalid ListOptions, DeleteOptions).
  const details: StatusDetails = { ...(name ? { name } : {}), kind, causes };
  if (group) details.group = group;
  return failure(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${list}`, details);
}

/** 400 BadRequest (`errors.NewBadRequest`). */
export function badRequest(message: string): StatusError {
  return failure(400, "BadRequest", message);
}

/** 401 Unauthorized (`errors.NewUnauthorized`). */
export function unauthorized(message = "Unauthorized"): StatusError {
  return failure(401, "Unauthorized", message);
}

/** 403 Forbidden, optionally with causes (namespace termination uses `NamespaceTerminating`). */
export function forbidden(t: StatusTarget, why: string, causes?: StatusCause[]): StatusError {
  const details = detailsOf(t);
  if (causes) details.causes = causes;
  return failure(403, "Forbidden", `${qualified(t)} "${t.name ?? ""}" is forbidden: ${why}`, details);
}

/** 405 MethodNotAllowed (`errors.NewMethodNotSupported`). */
export function methodNotAllowed(message: string): StatusError {
  return failure(405, "MethodNotAllowed", message);
}

/** 410 Expired: a resourceVersion older than the retained history (`errors.NewResourceExpired`). */
export function expired(message: string): StatusError {
  return failure(410, "Expired", message);
}

/** 413 RequestEntityTooLarge (`errors.NewRequestEntityTooLargeError`). */
export function tooLarge(message: string): StatusError {
  return failure(413, "RequestEntityTooLarge", message);
}

/** 500 InternalError (`errors.NewInternalError`): anything unexpected becomes this instead of a crash. */
export function internalError(message: string): StatusError {
  return failure(500, "InternalError", `Internal error occurred: ${message}`);
}

/** 504 Timeout with `retryAfterSeconds` (resourceVersion too large; `errors.NewTimeoutError`). */
export function timeout(message: string, retryAfterSeconds = 1): StatusError {
  return failure(504, "Timeout", message, { retryAfterSeconds });
}
