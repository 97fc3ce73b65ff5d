/**
 * Lab 09, an answer written differently from the reference: the candidate remembers the last Lease it saw and
 * when its resourceVersion last changed (every write changes it, a renewal included), and both ways of winning
 * (create a missing Lease, replace an expired or own one) go through one write helper.
 */
import { type Clock, formatMicroTime, type LeaseEndpoint, type LeaseObject } from "kube-controller-workbook";

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
  private seen: { resourceVersion: string; at: number } | undefined;
  private lastWinStartedAt: number | undefined;

  constructor(readonly config: CandidateConfig) {}

  /** One attempt to acquire or renew the Lease; true if this candidate holds it afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { store, namespace, name, identity, clock } = this.config;
    const began = clock.now();
    let lease: LeaseObject | undefined;
    try {
      lease = await store.read(namespace, name);
    } catch {
      return false;
    }
    if (lease) {
      this.saw(lease);
      const holder = lease.spec.holderIdentity;
      const duration = (lease.spec.leaseDurationSeconds ?? 0) * 1000;
      const stillValid = clock.now() - (this.seen?.at ?? 0) < duration;
      if (holder && holder !== identity && stillValid) return false;
    }
    return this.write(lease, began);
  }

  /** True until renewDeadline after the start of the last attempt that won (on this candidate's clock). */
  isLeader(): boolean {
    if (this.lastWinStartedAt === undefined) return false;
    return this.config.clock.now() - this.lastWinStartedAt < this.config.renewDeadlineMs;
  }

  /** Creates the Lease (when `lease` is undefined) or replaces the one read, resourceVersion and all. */
  private async write(lease: LeaseObject | undefined, began: number): Promise<boolean> {
    const { store, namespace, name, identity } = this.config;
    const stamp = formatMicroTime(began);
    const keep = lease?.spec.holderIdentity === identity;
    const spec = {
      ...(lease?.spec ?? {}),
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.config.leaseDurationMs / 1000),
      renewTime: stamp,
      acquireTime: keep ? lease?.spec.acquireTime : stamp,
      leaseTransitions: (lease?.spec.leaseTransitions ?? 0) + (lease && !keep ? 1 : 0),
    };
    try {
      const written = lease
        ? await store.replace({ ...lease, spec })
        : await store.create({ metadata: { namespace, name }, spec });
      this.saw(written);
    } catch {
      return false; // 409: someone else wrote first
    }
    this.lastWinStartedAt = began;
    return this.isLeader();
  }

  /** Restarts the local expiry timer when the Lease's resourceVersion differs from the last one seen. */
  private saw(lease: LeaseObject): void {
    const resourceVersion = lease.metadata.resourceVersion ?? "";
    if (this.seen?.resourceVersion === resourceVersion) return;
    this.seen = { resourceVersion, at: this.config.clock.now() };
  }
}
