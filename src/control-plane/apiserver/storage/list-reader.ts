import type { KeyHistory } from "./key-history.js";
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

/** Entries kept in a store's `remainingMemo`: enough for a few paginated readers at once. */
const MEMO_SIZE = 16;

/**
 * Reads the objects of one resource in key order at one revision, optionally paginated: etcd's range read
 * with `limit` as the generic registry uses it. A page is cut after `limit` matches; `next` is set when any
 * object (matching or not) follows, which is when kube-apiserver returns a continue token.
 *
 * `remaining` (etcd's count minus the page) would cost a scan of the rest of the range on every page, making a
 * paginated LIST quadratic. The state at a revision never changes, so when a page resumes where a memoised one
 * stopped, at the same revision and prefix, its `remaining` is the memoised count minus this page's objects.
 */
export function readRange(rs: ResourceStore, q: RangeQuery): RangePage {
  const keys = rs.sortedKeys();
  const histories = rs.historiesInKeyOrder();
  const prefix = q.namespace === undefined ? "" : `${q.namespace}/`;
  const from = q.start !== undefined && q.start > prefix ? q.start : prefix;
  const versions: StoredVersion[] = [];
  const limit = q.limit && q.limit > 0 ? q.limit : Number.POSITIVE_INFINITY;
  let i = rs.lowerBound(from);
  for (; i < keys.length; i++) {
    const key = keys[i]!;
    if (prefix && !key.startsWith(prefix)) break;
    const v = visible(histories[i]!, q);
    if (!v || (q.match && !q.match(v))) continue;
    if (versions.length === limit) {
      return {
        versions,
        next: key,
        remaining: q.match ? undefined : remainingFrom(rs, i, prefix, q, from, limit),
      };
    }
    versions.push(v);
  }
  return { versions };
}

function visible(history: KeyHistory, q: RangeQuery): StoredVersion | undefined {
  return q.latest ? history.current() : history.at(q.rev);
}

/** Live objects at `q.rev` from sorted index `from` to the end of the prefix; memoised per resume key. */
function remainingFrom(
  rs: ResourceStore,
  from: number,
  prefix: string,
  q: RangeQuery,
  start: string,
  pageSize: number,
): number {
  const memo = rs.remainingMemo;
  const keys = rs.sortedKeys();
  const earlier = memo.get(`${q.rev}\0${prefix}\0${start}`);
  let n = 0;
  if (earlier !== undefined) n = earlier - pageSize;
  else {
    const histories = rs.historiesInKeyOrder();
    for (let i = from; i < keys.length; i++) {
      if (prefix && !keys[i]!.startsWith(prefix)) break;
      if (visible(histories[i]!, q)) n++;
    }
  }
  // What the page after this one will look up: the objects from this page's `next` key on (this one included).
  memo.set(`${q.rev}\0${prefix}\0${keys[from]}`, n);
  while (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return n;
}
