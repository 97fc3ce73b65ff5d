/**
 * How the node lifecycle controller (kube-controller-manager, `pkg/controller/nodelifecycle`) decides that a
 * node stopped heartbeating: it remembers, per node, the Lease's `renewTime` it last saw and **when it saw it
 * change, on its own clock** (the probe timestamp). A node whose Lease has not changed for longer than
 * `--node-monitor-grace-period` (40 s for many releases, 50 s in recent ones) is marked `Ready=Unknown`, and
 * its Pods are later evicted. Judging by local observation time, never by comparing `renewTime` with the local
 * clock, keeps the verdict safe against clock skew between the kubelet and the controller.
 */
import type { Clock } from "../../../clock/clock.js";
import { realClock } from "../../../clock/clock.js";
import { normalizeMicroTime } from "../../../leaderelection/leader-election-record.js";

/** A node Lease as read from the API (a `V1Lease` or a `LeaseObject` both fit). */
export interface NodeLeaseLike {
  metadata?: { name?: string };
  spec?: { holderIdentity?: string; renewTime?: string | Date; leaseDurationSeconds?: number };
}

/** What the monitor concluded about one node. */
export interface NodeLeaseVerdict {
  node: string;
  /** The last renewTime seen (MicroTime string). */
  renewTime: string;
  /** Milliseconds since the monitor last saw the Lease change (its own clock). */
  silentFor: number;
  /** `stale` once `silentFor` exceeds the grace period. */
  health: "fresh" | "stale";
}

/** Options of {@link NodeLeaseMonitor}. */
export interface NodeLeaseMonitorOptions {
  /** `--node-monitor-grace-period` in ms (default 40 s). */
  gracePeriod?: number;
  clock?: Clock;
}

/** The node lifecycle controller's heartbeat bookkeeping, fed with the Leases of `kube-node-lease`. */
export class NodeLeaseMonitor {
  readonly gracePeriod: number;
  private readonly clock: Clock;
  private readonly seen = new Map<string, { renewTime: string; probeTime: number }>();

  constructor(options: NodeLeaseMonitorOptions = {}) {
    this.gracePeriod = options.gracePeriod ?? 40_000;
    this.clock = options.clock ?? realClock;
  }

  /** Records the Leases just read and returns a verdict per node, sorted by node name. */
  observe(leases: readonly NodeLeaseLike[]): NodeLeaseVerdict[] {
    const now = this.clock.now();
    const verdicts: NodeLeaseVerdict[] = [];
    for (const lease of leases) {
      const node = lease.metadata?.name;
      if (!node) continue;
      const renewTime = normalizeMicroTime(lease.spec?.renewTime);
      const before = this.seen.get(node);
      const entry = before && before.renewTime === renewTime ? before : { renewTime, probeTime: now };
      this.seen.set(node, entry);
      const silentFor = now - entry.probeTime;
      verdicts.push({ node, renewTime, silentFor, health: silentFor > this.gracePeriod ? "stale" : "fresh" });
    }
    return verdicts.sort((a, b) => a.node.localeCompare(b.node));
  }
}
