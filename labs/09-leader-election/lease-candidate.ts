/**
 * Lab 09: one candidate of a Lease-based leader election. Read README.md first; notebook 09 section 3 builds a
 * simpler version against a real API, section 5 explains the rules the real one adds.
 */
import type { Clock, LeaseEndpoint } from "kube-controller-workbook";

/** Everything a candidate needs: its store, its Lease, its identity, its timings and its clock. */
export interface CandidateConfig {
  /** The Lease API: read (undefined if absent), create (409 if it exists), replace (409 if stale). */
  store: LeaseEndpoint;
  namespace: string;
  name: string;
  identity: string;
  /** How long others wait after they last saw the Lease change (whole seconds in the Lease). */
  leaseDurationMs: number;
  /** How long a leader believes it leads after the start of its last successful renewal. */
  renewDeadlineMs: number;
  clock: Clock;
}

/** One candidate. The caller calls `tryAcquireOrRenew()` every retry period and asks `isLeader()` before acting. */
export class LeaseCandidate {
  constructor(readonly config: CandidateConfig) {}

  /** One attempt to acquire or renew the Lease; true if this candidate holds it afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    // TODO: read the Lease (create it, holding it yourself, if it does not exist).
    // TODO: if another candidate holds it and it has not expired, give up. Judge expiry on your own clock.
    // TODO: otherwise write yourself in with the resourceVersion you read; a failed write means you lost.
    throw new Error("TODO: tryAcquireOrRenew is not written yet");
  }

  /** True while this candidate may act as the leader. */
  isLeader(): boolean {
    // TODO: a leader believes it leads only until renewDeadlineMs after its last successful renewal started.
    throw new Error("TODO: isLeader is not written yet");
  }
}
