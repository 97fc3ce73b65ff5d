/**
 * The leader election record: what a lock stores about the current leader. Mirrors client-go's
 * `resourcelock.LeaderElectionRecord` and its mapping onto a coordination.k8s.io/v1 `LeaseSpec`
 * (`resourcelock/leaselock.go`): holderIdentity, leaseDurationSeconds, acquireTime, renewTime and
 * leaseTransitions (called leaderTransitions in the record).
 */

/** client-go's `LeaderElectionRecord`. Times are MicroTime strings (`2026-01-02T15:04:05.000000Z`). */
export interface LeaderElectionRecord {
  /** Identity of the holder; "" after a release, which lets anyone take the lease at once. */
  holderIdentity: string;
  /** How long others must wait, after they last saw the record change, before they may take it. */
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  /** How many times the lease changed hands. */
  leaderTransitions: number;
}

/** The subset of a coordination.k8s.io/v1 `LeaseSpec` a lock reads and writes (times as MicroTime strings). */
export interface LeaseSpecFields {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/**
 * Formats milliseconds since the epoch as a Kubernetes `MicroTime`: RFC3339, UTC, six fractional digits
 * (`metav1.MicroTime`, `RFC3339Micro`). The clock has millisecond resolution, so the last three digits are 0.
 */
export function formatMicroTime(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`cannot format ${ms} as a MicroTime`);
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

/**
 * Normalises a time read from the API (a string with any number of fractional digits, or a `Date`, which is
 * what some client-node paths hand back) into the 6-digit MicroTime form, so raw records compare stably.
 */
export function normalizeMicroTime(value: string | Date | undefined): string {
  if (value === undefined) return "";
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) return typeof value === "string" ? value : "";
  const iso = new Date(ms).toISOString();
  const digits =
    (typeof value === "string" ? /\.(\d{1,6})/.exec(value)?.[1] : undefined) ?? iso.slice(20, 23);
  return `${iso.slice(0, 19)}.${digits.padEnd(6, "0")}Z`;
}

/** Reads a record out of a Lease spec (`LeaseSpecToLeaderElectionRecord`); missing fields become zero values. */
export function leaseSpecToRecord(spec: LeaseSpecFields | undefined): LeaderElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? "",
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 0,
    acquireTime: normalizeMicroTime(spec?.acquireTime),
    renewTime: normalizeMicroTime(spec?.renewTime),
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}

/** Writes a record as a Lease spec (`LeaderElectionRecordToLeaseSpec`). */
export function recordToLeaseSpec(record: LeaderElectionRecord): LeaseSpecFields {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: record.acquireTime,
    renewTime: record.renewTime,
    leaseTransitions: record.leaderTransitions,
  };
}

/**
 * The record's raw bytes, the way client-go keeps `observedRawRecord`: candidates compare it to decide whether
 * the record changed since they last looked (and so whether to restart their local expiry timer).
 */
export function rawRecord(record: LeaderElectionRecord): string {
  return JSON.stringify([
    record.holderIdentity,
    record.leaseDurationSeconds,
    record.acquireTime,
    record.renewTime,
    record.leaderTransitions,
  ]);
}
