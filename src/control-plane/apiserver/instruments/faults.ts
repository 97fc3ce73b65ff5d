/**
 * Fault injection for the embedded API server: the failures a controller must survive in production, on
 * demand. Dropped watches (an apiserver restart or a load balancer timeout), compacted history (the 410
 * Expired that forces a relist), failing requests (5xx, 429, 409) and slow responses. Every fault stays until
 * it is used up or {@link FaultInjector.clear} is called.
 */

import { type Status, StatusError } from "../../../apimachinery/errors.js";
import type { Clock } from "../../../clock/clock.js";
import type { ApiVerb } from "../types.js";

/** What the faults need from the server: the open watches and the backend's history. */
export interface FaultTargets {
  /** Closes every open watch stream; returns how many were closed. */
  closeAllWatches(): number;
  /** Drops the backend's watch history (`ApiBackend.compactHistory`). */
  compactHistory(): void;
}

/** A verb selector: one API verb or `"*"` for all. */
export type VerbSelector = ApiVerb | "*";

interface FailRule {
  verb: VerbSelector;
  resource?: string;
  remaining: number;
  code: number;
}

const REASONS: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  410: "Expired",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

/** The Status body of an injected failure: the reason kube-apiserver uses for that code. */
export function injectedStatus(code: number, verb: string, resource: string): Status {
  const status: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `injected fault: ${verb} ${resource} failed with ${code}`,
    reason: REASONS[code] ?? "Unknown",
    code,
  };
  if (code === 429 || code === 503 || code === 504) status.details = { retryAfterSeconds: 1 };
  return status;
}

/**
 * The fault switchboard behind `cluster.instruments.faults`. The HTTP layer calls {@link FaultInjector.before}
 * for every request and {@link FaultInjector.watchEventLimit} for every watch it opens.
 */
export class FaultInjector {
  private rules: FailRule[] = [];
  private delayAll = 0;
  private delayByVerb = new Map<string, number>();
  private eventsPerWatch = 0;

  constructor(
    private readonly targets: FaultTargets,
    private readonly clock: Clock,
  ) {}

  /** Closes every open watch now (clients see a clean end of stream and must re-watch). Returns the count. */
  dropWatches(): number {
    return this.targets.closeAllWatches();
  }

  /** From now on every watch stream is closed after it has delivered `n` events (0 turns this off). */
  dropWatchesEvery(n: number): void {
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`dropWatchesEvery: n must be an integer >= 0, got ${n}`);
    this.eventsPerWatch = n;
  }

  /** Forgets all watch history, so the next watch resuming from an older resourceVersion gets 410 Expired. */
  compactHistory(): void {
    this.targets.compactHistory();
  }

  /**
   * The next `count` requests with this verb (and resource, if given, e.g. `"configmaps"`) fail with `code`
   * and a Status body with the matching reason (500 InternalError, 429 TooManyRequests, 409 Conflict...).
   */
  failNext(verb: VerbSelector, count: number, code: number, resource?: string): void {
    if (!Number.isInteger(count) || count < 1)
      throw new Error(`failNext: count must be an integer >= 1, got ${count}`);
    if (!Number.isInteger(code) || code < 400 || code > 599) {
      throw new Error(`failNext: code must be an HTTP error code (400-599), got ${code}`);
    }
    const rule: FailRule = { verb, remaining: count, code };
    if (resource !== undefined) rule.resource = resource;
    this.rules.push(rule);
  }

  /** Adds `ms` of latency to every request, or only to requests with `verb`. 0 removes it. */
  latency(ms: number, verb?: VerbSelector): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`latency: ms must be >= 0, got ${ms}`);
    if (verb === undefined || verb === "*") this.delayAll = ms;
    else if (ms === 0) this.delayByVerb.delete(verb);
    else this.delayByVerb.set(verb, ms);
  }

  /** Removes every pending fault (failures, latency, periodic watch drops). */
  clear(): void {
    this.rules = [];
    this.delayAll = 0;
    this.delayByVerb.clear();
    this.eventsPerWatch = 0;
  }

  /**
   * Called by the HTTP layer before serving a resource request: waits the configured latency (on the
   * server's clock), then throws the first matching injected failure.
   */
  async before(verb: string, resource: string): Promise<void> {
    const delay = this.delayByVerb.get(verb) ?? this.delayAll;
    if (delay > 0) await this.clock.sleep(delay);
    const i = this.rules.findIndex(
      (r) => (r.verb === "*" || r.verb === verb) && (r.resource === undefined || r.resource === resource),
    );
    if (i < 0) return;
    const rule = this.rules[i] as FailRule;
    rule.remaining--;
    if (rule.remaining <= 0) this.rules.splice(i, 1);
    throw new StatusError(injectedStatus(rule.code, verb, resource));
  }

  /** How many events a new watch may deliver before it is dropped (undefined: no limit). */
  watchEventLimit(): number | undefined {
    return this.eventsPerWatch > 0 ? this.eventsPerWatch : undefined;
  }
}
