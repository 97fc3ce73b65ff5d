import type { StoredVersion } from "./stored-version.js";

/**
 * The versions of one key, oldest first, as etcd keeps them between compactions.
 *
 * Invariants: revisions strictly increase along `versions`; at most the last version is read as "current";
 * after `compact(r)` the key still answers `at(x)` correctly for every x >= r.
 */
export class KeyHistory {
  readonly versions: StoredVersion[] = [];

  /** The newest version (possibly a tombstone). */
  latest(): StoredVersion | undefined {
    return this.versions[this.versions.length - 1];
  }

  /** The live object's version, or undefined when the key is deleted. */
  current(): StoredVersion | undefined {
    const v = this.latest();
    return v && !v.deleted ? v : undefined;
  }

  /** The version visible at revision `rev` (newest with rev <= `rev`), undefined if none or a tombstone. */
  at(rev: number): StoredVersion | undefined {
    for (let i = this.versions.length - 1; i >= 0; i--) {
      const v = this.versions[i]!;
      if (v.rev <= rev) return v.deleted ? undefined : v;
    }
    return undefined;
  }

  /** Appends a newer version. */
  push(version: StoredVersion): void {
    const prev = this.latest();
    if (prev && prev.rev >= version.rev)
      throw new Error(`revision ${version.rev} is not newer than ${prev.rev}`);
    this.versions.push(version);
  }

  /**
   * Drops versions no reader at a revision >= `rev` can see. Returns true when nothing is left (the key was
   * deleted before `rev`), so the caller can forget the key.
   */
  compact(rev: number): boolean {
    let keepFrom = 0;
    for (let i = this.versions.length - 1; i >= 0; i--) {
      if (this.versions[i]!.rev <= rev) {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom > 0) this.versions.splice(0, keepFrom);
    const first = this.versions[0];
    if (first?.deleted && first.rev <= rev) this.versions.shift();
    return this.versions.length === 0;
  }
}
