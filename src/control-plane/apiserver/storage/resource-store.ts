import { KeyHistory } from "./key-history.js";
import type { StoredVersion } from "./stored-version.js";

/**
 * The keys of one resource (e.g. all ConfigMaps), each with its {@link KeyHistory}. Keys are `namespace/name`
 * (or `name` for cluster-scoped kinds) and are listed in sorted order, as etcd range reads return them.
 *
 * Invariant: `sorted`, when present, holds exactly the keys of `keys` in ascending order and `sortedHistories[i]`
 * is the history of `sorted[i]`; both are rebuilt lazily after a key is added or forgotten (not on updates, which
 * do not change the key set). Range reads walk the two arrays, so a LIST does no hash lookup per object.
 */
export class ResourceStore {
  private readonly keys = new Map<string, KeyHistory>();
  private sorted: string[] | undefined;
  private sortedHistories: KeyHistory[] | undefined;
  /** `remainingItemCount` of recent paginated reads, by revision, prefix and resume key (see `list-reader.ts`). */
  readonly remainingMemo = new Map<string, number>();

  /** The live version of `key`, if the object exists now. */
  current(key: string): StoredVersion | undefined {
    return this.keys.get(key)?.current();
  }

  /** The version of `key` visible at revision `rev`. */
  at(key: string, rev: number): StoredVersion | undefined {
    return this.keys.get(key)?.at(rev);
  }

  /** Records a new version (or tombstone) of `key`. */
  put(key: string, version: StoredVersion): void {
    let history = this.keys.get(key);
    if (!history) {
      history = new KeyHistory();
      this.keys.set(key, history);
      this.forgetOrder();
    }
    history.push(version);
  }

  /** All keys with any retained version (live or tombstoned), ascending. */
  sortedKeys(): readonly string[] {
    if (this.sorted === undefined) {
      const sorted = [...this.keys.keys()].sort();
      this.sortedHistories = sorted.map((key) => this.keys.get(key)!);
      this.sorted = sorted;
    }
    return this.sorted;
  }

  /** The histories of {@link sortedKeys}, index for index. */
  historiesInKeyOrder(): readonly KeyHistory[] {
    this.sortedKeys();
    return this.sortedHistories!;
  }

  /**
   * Index of the first sorted key that is >= `from`, by binary search (used to start a namespace scan at
   * `ns/` or a continued list after its last key).
   */
  lowerBound(from: string): number {
    const keys = this.sortedKeys();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Drops versions of `key` older than `rev` that no reader can see any more; forgets empty keys. */
  compactKey(key: string, rev: number): void {
    const history = this.keys.get(key);
    if (history?.compact(rev)) {
      this.keys.delete(key);
      this.forgetOrder();
    }
  }

  /** Compacts every key (after `compactHistory()`). */
  compactAll(rev: number): void {
    for (const key of [...this.keys.keys()]) this.compactKey(key, rev);
  }

  private forgetOrder(): void {
    this.sorted = undefined;
    this.sortedHistories = undefined;
  }

  /** Number of live objects. */
  liveCount(): number {
    let n = 0;
    for (const h of this.keys.values()) if (h.current()) n++;
    return n;
  }
}
