/**
 * The fake cloud's record of calls: every call counted by verb, outcome and bucket. This is how a notebook
 * shows "cleanup ran three times but deleted once" and how a grader proves a finalizer deleted the external
 * resource exactly once. A real cloud gives you the same facts through its audit log (CloudTrail, Cloud Audit
 * Logs); here they are in memory and free to read.
 */
import { CLOUD_VERBS, type CloudCall, type CloudCallOutcome, type CloudVerb } from "./types.js";

/** A filter over recorded calls; every given field must match. */
export interface CloudCallFilter {
  verb?: CloudVerb;
  bucket?: string;
  outcome?: CloudCallOutcome;
  /** Only calls that changed the cloud (true) or did not (false). */
  effective?: boolean;
}

/** Calls made so far, by verb (started calls, whatever their outcome). */
export type CloudCallCounts = Record<CloudVerb, number>;

/** Append-only log of calls with counting helpers. Bounded: the oldest entries go beyond `limit`. */
export class CloudCallLog {
  private readonly entries: CloudCall[] = [];
  private readonly started: CloudCallCounts = { create: 0, get: 0, list: 0, delete: 0 };
  private seq = 0;

  constructor(private readonly limit = 10_000) {}

  /** Counts a call as started and returns its sequence number. */
  start(verb: CloudVerb): number {
    this.started[verb]++;
    return ++this.seq;
  }

  /** Records a finished call. */
  record(call: CloudCall): void {
    this.entries.push(call);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  /** Calls started so far, by verb (including ones still waiting out their latency). */
  counts(): CloudCallCounts {
    return { ...this.started };
  }

  /** Total calls started, across verbs. */
  total(): number {
    return CLOUD_VERBS.reduce((sum, v) => sum + this.started[v], 0);
  }

  /** Finished calls matching `filter`, oldest first (copies). */
  list(filter: CloudCallFilter = {}): CloudCall[] {
    return this.entries.filter(
      (c) =>
        (filter.verb === undefined || c.verb === filter.verb) &&
        (filter.bucket === undefined || c.bucket === filter.bucket) &&
        (filter.outcome === undefined || c.outcome === filter.outcome) &&
        (filter.effective === undefined || c.effective === filter.effective),
    );
  }

  /** Number of finished calls matching `filter`. */
  count(filter: CloudCallFilter = {}): number {
    return this.list(filter).length;
  }

  /** Forgets every call and zeroes the counters. */
  reset(): void {
    this.entries.length = 0;
    for (const v of CLOUD_VERBS) this.started[v] = 0;
    this.seq = 0;
  }
}
