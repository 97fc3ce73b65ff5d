/**
 * The uids of owners known to be absent (kube-controller-manager's `absentOwnerCache`, an LRU of 500
 * entries), so a hundred dependents of one deleted owner cost one lookup, not a hundred.
 *
 * Invariant: holds at most `capacity` uids; looking a uid up makes it the most recently used.
 */
export class AbsentOwnerCache {
  private readonly uids = new Map<string, true>();

  constructor(private readonly capacity = 500) {}

  add(uid: string): void {
    this.uids.delete(uid);
    this.uids.set(uid, true);
    if (this.uids.size > this.capacity) this.uids.delete(this.uids.keys().next().value as string);
  }

  has(uid: string): boolean {
    if (!this.uids.has(uid)) return false;
    this.add(uid);
    return true;
  }
}
