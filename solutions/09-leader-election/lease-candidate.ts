/**
 * Lab 09, reference answer: one candidate of a Lease-based leader election, client-go's `tryAcquireOrRenew`
 * plus the two rules that make it safe: expiry is judged on this candidate's own clock from when it saw the
 * Lease change, and leadership is believed only until `renewDeadlineMs` after the start of the last successful
 * renewal (which is shorter than `leaseDurationMs`, so a leader stops before anyone may take over).
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
  private observedSpec = "";
  private observedAt = Number.NEGATIVE_INFINITY;
  private leadingUntil = Number.NEGATIVE_INFINITY;

  constructor(readonly config: CandidateConfig) {}

  /** One attempt to acquire or renew the Lease; true if this candidate holds it afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const { store, namespace, name, identity, clock } = this.config;
    const startedAt = clock.now();
    const seconds = Math.ceil(this.config.leaseDurationMs / 1000);
    let current: LeaseObject | undefined;
    try {
      current = await store.read(namespace, name);
    } catch {
      return false;
    }
    const now = formatMicroTime(startedAt);
    if (!current) {
      const spec = {
        holderIdentity: identity,
        leaseDurationSeconds: seconds,
        acquireTime: now,
        renewTime: now,
      };
      try {
        const created = await store.create({
          metadata: { namespace, name },
          spec: { ...spec, leaseTransitions: 0 },
        });
        this.observe(created);
      } catch {
        return false; // someone created it first
      }
      return this.won(startedAt);
    }
    this.observe(current);
    const holder = current.spec.holderIdentity ?? "";
    const expiresAt = this.observedAt + (current.spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder !== "" && holder !== identity && clock.now() < expiresAt) return false;
    const mine = holder === identity;
    const spec = {
      ...current.spec,
      holderIdentity: identity,
      leaseDurationSeconds: seconds,
      renewTime: now,
      acquireTime: mine ? current.spec.acquireTime : now,
      leaseTransitions: (current.spec.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
    try {
      // `current` carries the resourceVersion we read: a write in between makes this fail with 409.
      this.observe(await store.replace({ ...current, spec }));
    } catch {
      return false;
    }
    return this.won(startedAt);
  }

  /** True while the last successful renewal started less than renewDeadlineMs ago (on this candidate's clock). */
  isLeader(): boolean {
    return this.config.clock.now() < this.leadingUntil;
  }

  /** Restarts the local expiry timer whenever the Lease's spec changed since we last looked. */
  private observe(lease: LeaseObject): void {
    const spec = JSON.stringify(lease.spec);
    if (spec === this.observedSpec) return;
    this.observedSpec = spec;
    this.observedAt = this.config.clock.now();
  }

  /** A successful write that started at `startedAt`: we lead until startedAt + renewDeadlineMs. */
  private won(startedAt: number): boolean {
    this.leadingUntil = startedAt + this.config.renewDeadlineMs;
    return this.isLeader();
  }
}
