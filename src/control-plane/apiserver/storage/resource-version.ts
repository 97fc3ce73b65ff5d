import { badRequest, expired, failure, type StatusError } from "../../../apimachinery/errors.js";

/**
 * Parses a resourceVersion from a client. "" and "0" both mean 0 ("any"), as in kube-apiserver's
 * `APIObjectVersioner.ParseResourceVersion`. Anything but a non-negative decimal integer is the error that
 * function returns, which kube-apiserver's GET and WATCH handlers pass through as a 500 without a reason
 * (`resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`); a LIST wraps it
 * in a 400 BadRequest (see {@link parseListResourceVersion}).
 */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === "") return 0;
  const why = resourceVersionSyntaxError(rv);
  if (why !== undefined) throw failure(500, "", why);
  return Number(rv);
}

/** {@link parseResourceVersion} for a LIST: 400 `invalid resource version: <why>`, as the cacher reports it. */
export function parseListResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === "") return 0;
  const why = resourceVersionSyntaxError(rv);
  if (why !== undefined) throw badRequest(`invalid resource version: ${why}`);
  return Number(rv);
}

/** The field error Go's `strconv.ParseUint` leads to for a resourceVersion, or undefined when it parses. */
function resourceVersionSyntaxError(rv: string): string | undefined {
  if (/^[0-9]{1,16}$/.test(rv)) return undefined;
  const cause = /^[0-9]+$/.test(rv) ? "value out of range" : "invalid syntax";
  const quoted = JSON.stringify(rv);
  return `resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${cause}`;
}

/**
 * 504 Timeout, cause ResourceVersionTooLarge: the client asked for a revision the store has not reached.
 * kube-apiserver's watch cache first waits up to 3 s for it to arrive; the embedded store is never behind its
 * own writes, so it answers at once.
 */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  const why = `Too large resource version: ${requested}, current: ${current}`;
  return failure(504, "Timeout", `Timeout: ${why}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  });
}

/** 410 Expired for a watch from before the history window: "too old resource version: X (Y)". */
export function tooOldWatch(requested: number, compacted: number): StatusError {
  return expired(`too old resource version: ${requested} (${compacted})`);
}

/** 410 Expired for a list at an exact revision that compaction already dropped. */
export function tooOldList(): StatusError {
  return expired("The resourceVersion for the provided list is too old.");
}
