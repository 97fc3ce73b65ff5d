/**
 * Typed errors for what the API server reports, whichever way it reports it: an HTTP error response (client-node's
 * `ApiException` with the `Status` body as text), a non-200 watch response (client-node's `Watch` passes an `Error`
 * with `statusCode` to `done`), or an `ERROR` event inside a 200 watch stream. Mirrors apimachinery's
 * `errors.StatusError` and its `IsResourceExpired` / `IsGone` / `IsTooManyRequests` predicates.
 */

/** The `metav1.Status` fields a client reads. */
export interface StatusLike {
  kind?: string;
  status?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: {
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
}

/** An API failure carrying the server's `Status` (code, reason, message). */
export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  constructor(readonly status: StatusLike) {
    super(status.message || `${status.reason ?? "Failure"} (HTTP ${status.code ?? "?"})`);
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
  constructor(status: StatusLike) {
    super(status);
    this.name = "ExpiredError";
  }
}

function parseStatusText(body: unknown): StatusLike | undefined {
  if (body && typeof body === "object") return body as StatusLike;
  if (typeof body !== "string" || !body.trim().startsWith("{")) return undefined;
  try {
    return JSON.parse(body) as StatusLike;
  } catch {
    return undefined;
  }
}

/** Builds the typed error for a `Status`: {@link ExpiredError} for 410, {@link StatusError} otherwise. */
export function statusToError(status: StatusLike): StatusError {
  return status.code === 410 ? new ExpiredError(status) : new StatusError(status);
}

/**
 * Normalises anything client-node throws or passes to a watch's `done` into a typed error when it carries an HTTP
 * status: `ApiException` (`code` + text `body`), a watch `Error` with `statusCode`, or a bare `Status` object.
 * Transport errors (connection refused, reset) come back unchanged.
 */
export function toApiError(err: unknown): unknown {
  if (err instanceof StatusError) return err;
  if (!err || typeof err !== "object") return err;
  const e = err as {
    code?: unknown;
    statusCode?: unknown;
    body?: unknown;
    kind?: unknown;
    message?: unknown;
  };
  if (e.kind === "Status") return statusToError(e as StatusLike);
  const code =
    typeof e.statusCode === "number" ? e.statusCode : typeof e.code === "number" ? e.code : undefined;
  if (code === undefined) return err;
  const parsed = parseStatusText(e.body);
  const message = typeof e.message === "string" ? e.message : undefined;
  return statusToError({ ...parsed, code, message: parsed?.message ?? message });
}

/** True for 410 Expired/Gone, in any of the shapes {@link toApiError} understands. */
export function isExpired(err: unknown): boolean {
  const e = toApiError(err);
  return e instanceof StatusError && e.code === 410;
}

/** True for a "too large resource version" answer (504 with cause `ResourceVersionTooLarge`). */
export function isTooLargeResourceVersion(err: unknown): boolean {
  const e = toApiError(err);
  if (!(e instanceof StatusError)) return false;
  const causes = e.status.details?.causes ?? [];
  return (
    causes.some((c) => c.reason === "ResourceVersionTooLarge") ||
    /too large resource version/i.test(e.message)
  );
}

/** True for HTTP 429 Too Many Requests. */
export function isTooManyRequests(err: unknown): boolean {
  const e = toApiError(err);
  return e instanceof StatusError && e.code === 429;
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
