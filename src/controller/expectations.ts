/**
 * Expectations: what a controller remembers about its own writes until its cache has seen them. kube-controller-
 * manager's `ControllerExpectations` (`pkg/controller/controller_utils.go`), used by the ReplicaSet, Job and
 * DaemonSet controllers.
 *
 * The problem it solves: a controller counts its children in its informer's cache, and the cache learns about
 * the controller's own creates only when their watch events arrive. A sync that runs in between counts too few and
 * creates again. With expectations, the sync that creates `n` children first records "expect n creations" for its
 * key; the informer's add handler lowers the count by one for each child it sees; and a sync whose expectations are
 * not yet met skips the create/delete step (it may still write status). A create that fails is never seen by the
 * informer, so the caller lowers the count for it by hand.
 *
 * Guarantees and caveats, as upstream:
 * - A key with no record is satisfied: a new controller, or one that forgot (after {@link deleteExpectations}).
 * - A record is satisfied when both counts are <= 0 (fulfilled), or when it is older than the timeout
 *   ({@link EXPECTATIONS_TIMEOUT_MS}, 5 minutes): a watch event that never arrives (a dropped watch, a child
 *   deleted before it was seen) must not stall the controller forever.
 * - Setting expectations replaces the record (and restarts its timer); raising and lowering adjust it.
 * - Counts, not names: upstream tracks the keys of children it deletes (`UIDTrackingControllerExpectations`) so a
 *   deletion seen twice (as an update with a deletionTimestamp, then as a delete) is counted once; this class
 *   counts, and leaves that to the caller.
 */
import type { Clock } from "../clock/clock.js";
import { realClock } from "../clock/clock.js";

/** How long an unmet expectation blocks a key before it is treated as satisfied (upstream `ExpectationsTimeout`). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

/** One key's record (upstream `ControlleeExpectations`): creations and deletions still to be observed. */
export interface ControlleeExpectations {
  /** Creations not yet seen by the informer. */
  add: number;
  /** Deletions not yet seen by the informer. */
  del: number;
  /** When the record was last set, on the expectations' clock (ms). */
  timestamp: number;
}

/** Options of {@link ControllerExpectations}. */
export interface ControllerExpectationsOptions {
  /** Time source for the timeout (default: the real clock). */
  clock?: Clock;
  /** Age after which an unmet record counts as satisfied (default {@link EXPECTATIONS_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Expectations per controller key (`namespace/name` of the owner). See the module comment. */
export class ControllerExpectations {
  private readonly records = new Map<string, ControlleeExpectations>();
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(options: ControllerExpectationsOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.timeoutMs = options.timeoutMs ?? EXPECTATIONS_TIMEOUT_MS;
  }

  /** A copy of the record for `key`, or undefined when there is none. */
  getExpectations(key: string): ControlleeExpectations | undefined {
    const record = this.records.get(key);
    return record ? { ...record } : undefined;
  }

  /**
   * True when the controller may act on `key`: no record, a fulfilled record (both counts <= 0), or an expired one.
   * False while creations or deletions it made are still on their way to the cache.
   */
  satisfiedExpectations(key: string): boolean {
    const record = this.records.get(key);
    if (!record) return true;
    if (record.add <= 0 && record.del <= 0) return true;
    return this.clock.now() - record.timestamp > this.timeoutMs;
  }

  /** Replaces the record for `key` with `add` creations and `del` deletions to observe; restarts its timer. */
  setExpectations(key: string, add: number, del: number): void {
    this.records.set(key, { add, del, timestamp: this.clock.now() });
  }

  /** The sync is about to create `adds` children (upstream `ExpectCreations`). */
  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  /** The sync is about to delete `dels` children (upstream `ExpectDeletions`). */
  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** Adds to the counts of an existing record; does nothing when there is none. Keeps the timer. */
  raiseExpectations(key: string, add: number, del: number): void {
    const record = this.records.get(key);
    if (!record) return;
    record.add += add;
    record.del += del;
  }

  /** Takes from the counts of an existing record; does nothing when there is none. Keeps the timer. */
  lowerExpectations(key: string, add: number, del: number): void {
    const record = this.records.get(key);
    if (!record) return;
    record.add -= add;
    record.del -= del;
  }

  /** The informer saw a child of `key` created, or the create failed and never will be seen. */
  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  /** The informer saw a child of `key` deleted, or the delete failed and never will be seen. */
  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }

  /** Forgets `key` (its owner was deleted). */
  deleteExpectations(key: string): void {
    this.records.delete(key);
  }
}
