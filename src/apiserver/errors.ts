/**
 * The server's side of the Status error family. The errors themselves and their constructors live in the floor
 * (`src/apimachinery/errors.ts`, apimachinery's `pkg/api/errors`); what stays here is what only a server says:
 * the wire-exact texts of its own handlers, and the rule that nothing but a Status ever leaves a handler.
 */
import { failure, internalError, type StatusError, toStatusError } from "../apimachinery/errors.js";

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
  return toStatusError(err) ?? internalError(err instanceof Error ? err.message : String(err));
}
