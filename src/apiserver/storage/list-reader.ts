import type { ResourceStore } from "./resource-store.js";
import type { StoredVersion } from "./stored-version.js";

/** What one range read asks for. */
export interface RangeQuery {
  /** Only keys of this namespace (`ns/` prefix); undefined for all namespaces. */
  namespace: string | undefined;
  /** Read the state at this revision. */
  rev: number;
  /** True when `rev` is the store's current revision (reads the live versions directly, the fast path). */
  latest: boolean;
  /** Resume at the first key >= this one (from a continue token). */
  start?: string;
  /** Stop after this many matching objects (0 or undefined: no limit). */
  limit?: number;
  /** Selector predicate; undefined matches everything. */
  match?: (version: StoredVersion) => boolean;
}

/** One page of a range read. */
export interface RangePage {
  versions: StoredVersion[];
  /** Key to resume at when more keys follow the page (the continue token's `start`). */
  next?: string;
  /** Objects after this page, when it can be known cheaply (only without a selector, as etcd's count). */
  remaining?: number;
}

/**
 * Reads the objects of one resource in key order at one revision, optionally paginated: etcd's range read
 * with `limit` as the generic registry uses it. A page is cut after `limit` matches; `next` is set when any
 * object (matching or not) follows, which is when kube-apiserver returns a continue token.
 */
export function readRange(rs: ResourceStore, q: RangeQuery): RangePage {
  const keys = rs.sortedKeys();
  const prefix = q.namespace === undefined ? "" : `${q.namespace}/`;
  const from = q.start !== undefined && q.start > prefix ? q.start : prefix;
  const versions: StoredVersion[] = [];
  const limit = q.limit && q.limit > 0 ? q.limit : Number.POSITIVE_INFINITY;
  let i = rs.lowerBound(from);
  for (; i < keys.length; i++) {
    const key = keys[i]!;
    if (prefix && !key.startsWith(prefix)) break;
    const v = q.latest ? rs.current(key) : rs.at(key, q.rev);
    if (!v || (q.match && !q.match(v))) continue;
    if (versions.length === limit) {
      return { versions, next: key, remaining: q.match ? undefined : countFrom(rs, keys, i, prefix, q) };
    }
    versions.push(v);
  }
  return { versions };
}

function countFrom(
  rs: ResourceStore,
  keys: readonly string[],
  from: number,
  prefix: string,
  q: RangeQuery,
): number {
  let n = 0;
  for (let i = from; i < keys.length; i++) {
    const key = keys[i]!;
    if (prefix && !key.startsWith(prefix)) break;
    if (q.latest ? rs.current(key) : rs.at(key, q.rev)) n++;
  }
  return n;
}
