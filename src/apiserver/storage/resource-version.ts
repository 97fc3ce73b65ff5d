import { type ApiError, badRequest, expired, failure } from "../errors.js";

/**
 * Parses a resourceVersion from a client. "" and "0" both mean 0 ("any"), as in kube-apiserver's
 * `APIObjectVersioner.ParseResourceVersion`; anything but a non-negative decimal integer is 400 BadRequest.
 */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === "") return 0;
  if (!/^[0-9]{1,16}$/.test(rv)) throw badRequest(`invalid resource version: "${rv}"`);
  return Number(rv);
}

/**
 * 504 Timeout, cause ResourceVersionTooLarge: the client asked for a revision the store has not reached.
 * kube-apiserver's watch cache first waits up to 3 s for it to arrive; the embedded store is never behind its
 * own writes, so it answers at once.
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  const why = `Too large resource version: ${requested}, current: ${current}`;
  return failure(504, "Timeout", `Timeout: ${why}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: why }],
    retryAfterSeconds: 1,
  });
}

/** 410 Expired for a watch from before the history window: "too old resource version: X (Y)". */
export function tooOldWatch(requested: number, compacted: number): ApiError {
  return expired(`too old resource version: ${requested} (${compacted})`);
}

/** 410 Expired for a list at an exact revision that compaction already dropped. */
export function tooOldList(): ApiError {
  return expired("The resourceVersion for the provided list is too old.");
}
