import type { ErrorHandler } from "../apimachinery/lifecycle.js";
import type { RandomSource } from "../apimachinery/wait/random.js";
import type { Clock } from "../clock/clock.js";
import type { ResourceLock } from "./resource-lock.js";

/** client-go's `JitterFactor`: acquire retries wait RetryPeriod plus up to 1.2 x RetryPeriod. */
export const JITTER_FACTOR = 1.2;

/** Default LeaseDuration, 15 s (component-base, controller-manager and controller-runtime agree). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
/** Default RenewDeadline, 10 s. */
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
/** Default RetryPeriod, 2 s. */
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

/** client-go's `LeaderCallbacks`. */
export interface LeaderCallbacks {
  /**
   * Called when this candidate starts leading. `signal` aborts the moment leadership ends; the guarded work
   * must stop then (this is cooperative: there is no fencing).
   */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called once when `run()` ends, whether or not this candidate ever led; on a loss, before any release. */
  onStoppedLeading(): void;
  /**
   * Called whenever the observed holder changes, including the first observation. Runs on its own (a
   * microtask): a callback that throws is reported to `onError` and cannot take the elector down.
   */
  onNewLeader?(identity: string): void;
}

/** client-go's `LeaderElectionConfig`; durations are milliseconds. */
export interface LeaderElectionConfig {
  lock: ResourceLock;
  /**
   * How long non-leaders wait, after they last saw the record change, before taking over. Default 15 s. Written
   * to the Lease as `leaseDurationSeconds`, rounded up to whole seconds.
   */
  leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives up leading. Default 10 s. */
  renewDeadlineMs?: number;
  /** Pause between attempts (acquire attempts are jittered by {@link JITTER_FACTOR}). Default 2 s. */
  retryPeriodMs?: number;
  callbacks: LeaderCallbacks;
  /** Write an empty holder when `run()` is cancelled while leading, so others take over at once. */
  releaseOnCancel?: boolean;
  /** Name for logs and metrics. */
  name?: string;
  clock?: Clock;
  /** Randomness for jitter; inject `seededRandom(seed)` for reproducible runs. Default `Math.random`. */
  random?: RandomSource;
  /**
   * Receives what the elector survives: lock errors other than the expected races (409 Conflict, 409
   * AlreadyExists), and exceptions of the callbacks. Default: one line on stderr.
   */
  onError?: ErrorHandler;
}

/** A config with every default filled in. */
export interface ResolvedLeaderElectionConfig extends LeaderElectionConfig {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/**
 * Fills in defaults and applies `NewLeaderElector`'s checks: leaseDurationMs > renewDeadlineMs,
 * renewDeadlineMs > 1.2 x retryPeriodMs, all durations > 0, both mandatory callbacks present, a lock with an
 * identity. Every duration is in milliseconds and any positive value is accepted: the Lease stores whole
 * seconds, so the elector rounds `leaseDurationMs` *up* when it writes `leaseDurationSeconds` (2500 ms is written
 * as 3 s). Others then wait at least as long as this candidate assumes, never less, which keeps the
 * "a leader stops before anyone else can take over" invariant.
 */
export function resolveLeaderElectionConfig(config: LeaderElectionConfig): ResolvedLeaderElectionConfig {
  const resolved: ResolvedLeaderElectionConfig = {
    ...config,
    leaseDurationMs: config.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS,
    renewDeadlineMs: config.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS,
    retryPeriodMs: config.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS,
  };
  const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = resolved;
  for (const [name, value] of Object.entries({ leaseDurationMs, renewDeadlineMs, retryPeriodMs })) {
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`${name} must be greater than zero (got ${value})`);
  }
  if (leaseDurationMs <= renewDeadlineMs)
    throw new Error("leaseDurationMs must be greater than renewDeadlineMs");
  if (renewDeadlineMs <= JITTER_FACTOR * retryPeriodMs) {
    throw new Error("renewDeadlineMs must be greater than retryPeriodMs*JitterFactor");
  }
  if (typeof config.callbacks?.onStartedLeading !== "function")
    throw new Error("OnStartedLeading callback must not be nil");
  if (typeof config.callbacks.onStoppedLeading !== "function")
    throw new Error("OnStoppedLeading callback must not be nil");
  if (!config.lock) throw new Error("Lock must not be nil.");
  if (!config.lock.identity()) throw new Error("Lock identity is empty");
  return resolved;
}
