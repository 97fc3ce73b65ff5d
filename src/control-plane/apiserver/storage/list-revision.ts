import { badRequest } from "../../../apimachinery/errors.js";
import type { ListOptions } from "../types.js";
import { decodeContinue, expiredContinue, invalidContinue } from "./continue-token.js";
import { parseListResourceVersion, tooLargeResourceVersion, tooOldList } from "./resource-version.js";

/** Where a LIST reads: the revision, and the key to resume at when it continues a paginated list. */
export interface ListPosition {
  rev: number;
  start?: string;
  /** Page size (0: everything). */
  limit: number;
}

/**
 * Decides which revision a LIST reads, following kube-apiserver's resourceVersion table (api-concepts):
 * - `continue`: exactly the token's revision, from its key (a resourceVersion beside it is 400; a compacted
 *   revision is 410 Expired);
 * - resourceVersionMatch without resourceVersion, or Exact with "0": 422 Invalid ListOptions, found before the
 *   storage is asked (`ValidateListOptions`, registry/list-view.ts);
 * - resourceVersion unset: the current revision (the embedded store is never stale);
 * - resourceVersion "0": the current revision, whole: like the watch cache, which serves RV=0 lists, the
 *   `limit` is ignored (no continue token), so an informer's first list comes back in one piece;
 * - resourceVersion=N with `resourceVersionMatch=Exact`, or with a `limit` and no match: exactly N (410 if
 *   compacted);
 * - resourceVersion=N otherwise (NotOlderThan): the current revision;
 * - N newer than the store: 504 ResourceVersionTooLarge.
 */
export function resolveListPosition(opts: ListOptions, current: number, compacted: number): ListPosition {
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
  if (opts.continue) {
    if (opts.resourceVersion)
      throw badRequest("specifying resource version is not allowed when using continue");
    const token = decodeContinue(opts.continue);
    if (token.rev > current) throw invalidContinue("revision is in the future");
    if (token.rev < compacted) throw expiredContinue();
    return { rev: token.rev, start: token.start, limit };
  }
  const n = parseListResourceVersion(opts.resourceVersion);
  if (n > current) throw tooLargeResourceVersion(n, current);
  if (n === 0 && opts.resourceVersion === "0") return { rev: current, limit: 0 };
  const exact =
    opts.resourceVersionMatch === "Exact" || (opts.resourceVersionMatch === undefined && n > 0 && limit > 0);
  if (!exact) return { rev: current, limit };
  if (n < compacted) throw tooOldList();
  return { rev: n, limit };
}
