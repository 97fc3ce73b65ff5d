import type { LeaderElectionRecord } from "./leader-election-record.js";

/** What {@link ResourceLock.get} returns: the record and its raw form (client-go returns both). */
export interface ObservedRecord {
  record: LeaderElectionRecord;
  raw: string;
}

/**
 * Where a leader election record lives. Mirrors client-go's `resourcelock.Interface`:
 * - `get` returns the current record, or `undefined` when the lock object does not exist yet (NotFound);
 * - `create` creates the lock object holding `record` (fails if it exists);
 * - `update` overwrites the record on the object returned by the last get/create/update, *including its
 *   resourceVersion*, so a concurrent writer makes it fail (409 Conflict): every write is guarded;
 * - `identity` is this candidate's unique id, `describe` names the lock for logs and events.
 * Any failure is thrown; the elector treats every failure as "not acquired / not renewed".
 */
export interface ResourceLock {
  get(): Promise<ObservedRecord | undefined>;
  create(record: LeaderElectionRecord): Promise<void>;
  update(record: LeaderElectionRecord): Promise<void>;
  /** Records an event about this candidate ("became leader", "stopped leading"), client-go's `RecordEvent`. */
  recordEvent(message: string): void;
  identity(): string;
  describe(): string;
}

/** Options common to every lock (client-go's `ResourceLockConfig` plus the lock's object name). */
export interface ResourceLockConfig {
  namespace: string;
  name: string;
  /** Unique per process (kube-controller-manager uses `hostname_<uuid>`); must not be empty. */
  identity: string;
  /** Receives the events the elector records, e.g. `"c1 became leader"`. Default: dropped. */
  eventRecorder?: (message: string) => void;
}
