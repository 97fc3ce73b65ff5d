/**
 * The errors the fake cloud answers with. A real cloud API (S3, GCS, Azure Blob) reports failures as an HTTP
 * status plus a machine-readable code; a controller decides from that code whether to retry (503, injected
 * faults), treat the call as done (404 on delete, 409 "already yours" on create) or give up. We keep the same
 * three facts on every error: {@link FakeCloudError.code}, {@link FakeCloudError.status} and
 * {@link FakeCloudError.retryable}.
 */
import type { CloudVerb } from "./types.js";

/** What went wrong, as a cloud API would name it. */
export type CloudErrorCode =
  /** The bucket does not exist (HTTP 404). Delete callers usually treat this as success. */
  | "NotFound"
  /** A bucket with that name exists already (HTTP 409), like S3's `BucketAlreadyOwnedByYou`. */
  | "AlreadyExists"
  /** The cloud is down or was stopped (HTTP 503): retry later. */
  | "Unavailable"
  /** A failure injected with `failNext` (HTTP 500): retry later. */
  | "InternalError";

const STATUS: Record<CloudErrorCode, number> = {
  NotFound: 404,
  AlreadyExists: 409,
  Unavailable: 503,
  InternalError: 500,
};

/** An error answered by {@link FakeCloud}; mirrors the status + code pair every cloud SDK exposes. */
export class FakeCloudError extends Error {
  /** HTTP-like status code: 404, 409, 500 or 503. */
  readonly status: number;
  /** True for failures a controller should retry (500, 503); false for answers about the bucket (404, 409). */
  readonly retryable: boolean;

  constructor(
    readonly code: CloudErrorCode,
    readonly verb: CloudVerb,
    readonly bucket: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "FakeCloudError";
    this.status = STATUS[code];
    this.retryable = code === "Unavailable" || code === "InternalError";
  }
}

/**
 * The fake cloud's error behind `err`, if it is one. Recognised by class, or by name and fields when the
 * package is loaded twice (a grader importing the sources, a lab importing the build): two copies of the
 * class, one kind of error, as an SDK's errors are recognised by their code rather than their prototype.
 */
function asCloudError(err: unknown): Pick<FakeCloudError, "code" | "retryable"> | undefined {
  if (err instanceof FakeCloudError) return err;
  if (!err || typeof err !== "object") return undefined;
  const e = err as { name?: unknown; code?: unknown; retryable?: unknown };
  if (e.name !== "FakeCloudError" || typeof e.code !== "string" || !(e.code in STATUS)) return undefined;
  return { code: e.code as CloudErrorCode, retryable: e.retryable === true };
}

/** True when `err` is the fake cloud's 404: the bucket is not there (already deleted, or never created). */
export function isCloudNotFound(err: unknown): boolean {
  return asCloudError(err)?.code === "NotFound";
}

/** True when `err` is the fake cloud's 409 on create: a bucket with that name exists already. */
export function isCloudAlreadyExists(err: unknown): boolean {
  return asCloudError(err)?.code === "AlreadyExists";
}

/** True when `err` is a fake cloud failure worth retrying (injected 500, or 503 while down or stopped). */
export function isCloudRetryable(err: unknown): boolean {
  return asCloudError(err)?.retryable === true;
}
