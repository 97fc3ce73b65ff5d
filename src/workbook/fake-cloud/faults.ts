/**
 * Fault injection for the fake cloud: the three ways an external API hurts a controller. A verb can fail its
 * next N calls (a 500, before or after the effect happened), every call can be slowed down (latency measured
 * on the injected clock, so a FakeClock decides when a slow call returns), and the whole cloud can be down
 * (503 on every call). Kept apart from the bucket store so the rules read in one place.
 */
import type { CloudVerb } from "./types.js";

/** When an injected failure strikes relative to the call's effect. */
export type FailureTiming =
  /** Nothing changes in the cloud; the caller gets a 500 (a rejected request). */
  | "before"
  /** The effect happens (bucket created or deleted) and the caller still gets a 500 (a lost response). */
  | "after";

/** Options of {@link CloudFaults.failNext}. */
export interface FailNextOptions {
  /** Default `before`. */
  timing?: FailureTiming;
  /** Text of the error message; default names the verb and says it was injected. */
  message?: string;
}

interface PendingFailure {
  remaining: number;
  timing: FailureTiming;
  message?: string;
}

/** The failure (if any) the next call of a verb gets; consumed by {@link CloudFaults.take}. */
export interface InjectedFailure {
  readonly timing: FailureTiming;
  readonly message: string;
}

/** The fault plan of one fake cloud. All settings stay until changed or {@link CloudFaults.clear}ed. */
export class CloudFaults {
  private readonly pending = new Map<CloudVerb, PendingFailure[]>();
  private readonly latencyByVerb = new Map<CloudVerb, number>();
  private latencyAll = 0;
  /** True while the cloud answers every call with 503 Unavailable. */
  down = false;

  /** Makes the next `count` calls of `verb` fail with a 500 (queued after failures already planned). */
  failNext(verb: CloudVerb, count = 1, options: FailNextOptions = {}): void {
    if (!Number.isInteger(count) || count < 0) throw new Error(`failNext: count must be an integer >= 0`);
    if (count === 0) return;
    const list = this.pending.get(verb) ?? [];
    list.push({ remaining: count, timing: options.timing ?? "before", message: options.message });
    this.pending.set(verb, list);
  }

  /** Calls of `verb` that will still fail from {@link CloudFaults.failNext}. */
  failuresPlanned(verb: CloudVerb): number {
    return (this.pending.get(verb) ?? []).reduce((sum, p) => sum + p.remaining, 0);
  }

  /** Consumes one planned failure of `verb`, if any. */
  take(verb: CloudVerb): InjectedFailure | undefined {
    const list = this.pending.get(verb);
    const head = list?.[0];
    if (!list || !head) return undefined;
    head.remaining--;
    if (head.remaining === 0) list.shift();
    return {
      timing: head.timing,
      message: head.message ?? `injected failure: ${verb} answered 500 InternalError`,
    };
  }

  /** Sets the latency (ms on the cloud's clock) of every call, or of one verb when `verb` is given. */
  setLatency(ms: number, verb?: CloudVerb): void {
    if (!(ms >= 0)) throw new Error(`setLatency: ms must be >= 0`);
    if (verb) this.latencyByVerb.set(verb, ms);
    else this.latencyAll = ms;
  }

  /** The latency a call of `verb` waits: its own setting if any, else the one for every call. */
  latency(verb: CloudVerb): number {
    return this.latencyByVerb.get(verb) ?? this.latencyAll;
  }

  /** Drops every planned failure and latency and brings the cloud up. */
  clear(): void {
    this.pending.clear();
    this.latencyByVerb.clear();
    this.latencyAll = 0;
    this.down = false;
  }
}
