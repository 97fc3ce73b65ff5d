import { isAlreadyExists, isConflict } from "../apimachinery/errors.js";
import { type ErrorHandler, guardErrorHandler, type Runnable, RunOnce } from "../apimachinery/lifecycle.js";
import { jitter } from "../apimachinery/wait/jitter.js";
import type { RandomSource } from "../apimachinery/wait/random.js";
import { untilAborted } from "../apimachinery/wait/until-aborted.js";
import { type Clock, realClock, type Timer } from "../clock/clock.js";
import {
  JITTER_FACTOR,
  type LeaderElectionConfig,
  type ResolvedLeaderElectionConfig,
  resolveLeaderElectionConfig,
} from "./leader-election-config.js";
import { formatMicroTime, type LeaderElectionRecord, rawRecord } from "./leader-election-record.js";

/**
 * The `leaseDurationSeconds` written for a lease duration in milliseconds: rounded up, so others never judge
 * the lease shorter than its holder does (2500 ms -> 3 s).
 */
export function leaseDurationSeconds(leaseDurationMs: number): number {
  return Math.ceil(leaseDurationMs / 1000);
}

/**
 * client-go's `LeaderElector` (`tools/leaderelection/leaderelection.go`): candidates race for a lock; one
 * leads and renews it, the others watch it and take over when it expires.
 *
 * The algorithm is client-go's:
 * - `run` acquires (an attempt at once, then every RetryPeriod jittered by 1.2, i.e. [2 s, 4.4 s)), then
 *   calls `onStartedLeading(signal)` and renews every RetryPeriod until leadership ends, then (with
 *   `releaseOnCancel`) writes an empty holder, and always ends with `onStoppedLeading`.
 * - `tryAcquireOrRenew`: the holder first updates blindly on its cached Lease (fast path); otherwise get (or
 *   create when absent), and take the lock only if it is free (empty holder), expired, or already ours.
 * - Expiry is judged on this candidate's own clock: the lease is valid until `observedTime +
 *   record.leaseDurationSeconds`, where observedTime is when this candidate last saw the raw record change.
 *   Timestamps written by others are never compared with the local clock.
 * - Every write carries the resourceVersion of the Lease last read, so of two racing candidates one gets 409.
 *
 * Invariants:
 * - While leading, a guard timer is armed at `start of the last successful renewal + renewDeadlineMs`; when it
 *   fires, the leading signal aborts at once, even if a renewal call is still hanging.
 * - Hence a leader stops strictly before anyone else can take its lease: another candidate only takes over
 *   `leaseDurationMs` after it saw our last write, that write was sent after the renewal started, and
 *   leaseDurationMs > renewDeadlineMs (validated). This holds for any network latency; client-go measures its
 *   deadline from the start of each renew window instead, which gives about RetryPeriod more and is only
 *   safe while latency stays below leaseDurationMs - renewDeadlineMs - retryPeriodMs.
 * - This is not fencing: work guarded by the signal must actually stop when it aborts.
 * - Identities must be unique per process: a candidate that sees its own identity as holder renews at once.
 *
 * Lifecycle and errors (`src/apimachinery/lifecycle.ts`): `run(signal)` once, `stop()` idempotent. A failed lock
 * call is a failed attempt (retried next period) and is reported to `onError`, except the expected races: a
 * 409 Conflict (someone else wrote first) or AlreadyExists (someone else created the Lease first). Callbacks
 * that throw are reported too, and never stop the elector.
 */
export class LeaderElector implements Runnable {
  readonly config: ResolvedLeaderElectionConfig;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private observedRecord: LeaderElectionRecord | undefined;
  private observedRaw = "";
  private observedTime = 0;
  private reportedLeader = "";
  private leading: AbortController | undefined;
  private guard: Timer | undefined;
  private readonly lifecycle: RunOnce;
  private readonly component: string;
  private readonly onError: ErrorHandler;

  /** Validates the config (see {@link resolveLeaderElectionConfig}); throws a clear error on bad input. */
  constructor(config: LeaderElectionConfig) {
    this.config = resolveLeaderElectionConfig(config);
    this.clock = config.clock ?? realClock;
    this.random = config.random ?? Math.random;
    this.component = `leader-elector ${config.name ?? config.lock.describe()}`;
    this.lifecycle = new RunOnce(this.component);
    this.onError = guardErrorHandler(config.onError);
  }

  /**
   * Runs the election until `signal` aborts or {@link stop} is called, or until leadership is lost (like
   * client-go, a lost leader does not campaign again: create a new elector to campaign again, as a restarted
   * process would). The promise settles when everything has stopped, after `onStoppedLeading`. Runs once: a
   * second call rejects with `AlreadyRunError`.
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, (until) => this.runLoop(until));
  }

  /** Cancels `run` and waits for it to settle (releasing the lease first with `releaseOnCancel`). Idempotent. */
  async stop(): Promise<void> {
    await this.lifecycle.stop();
  }

  /** Reports one survived error as `onError(error, { component: "leader-elector <lock>", operation })`. */
  private report(error: unknown, operation: string): void {
    this.onError(error, { component: this.component, operation });
  }

  /**
   * A failed lock call: reported unless it is an expected race (409 Conflict or AlreadyExists: another
   * candidate wrote first) or the attempt was abandoned (`signal` aborted: the answer no longer matters).
   */
  private lockFailed(error: unknown, operation: string, signal: AbortSignal): false {
    if (!signal.aborted && !isConflict(error) && !isAlreadyExists(error)) this.report(error, operation);
    return false;
  }

  /** True while this candidate leads: from `onStartedLeading` until its signal aborts. */
  isLeader(): boolean {
    return this.leading !== undefined;
  }

  /** The holder identity last observed in the lock ("" if none yet), client-go's `GetLeader`. */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? "";
  }

  /**
   * client-go's healthz `Check`: returns an error when the last observed record names this candidate as
   * holder but it has not been seen renewed for longer than leaseDurationMs + `maxTolerableExpiredLease` (a
   * wedged leader). Returns undefined when healthy. kube-controller-manager tolerates 20 s.
   */
  check(maxTolerableExpiredLease = 0): Error | undefined {
    if (this.observedRecord?.holderIdentity !== this.config.lock.identity()) return undefined;
    if (this.clock.now() - this.observedTime > this.config.leaseDurationMs + maxTolerableExpiredLease) {
      return new Error(`failed election to renew leadership on lease ${this.config.lock.describe()}`);
    }
    return undefined;
  }

  private async runLoop(signal: AbortSignal): Promise<void> {
    let stoppedReported = false;
    const reportStopped = () => {
      if (stoppedReported) return;
      stoppedReported = true;
      try {
        this.config.callbacks.onStoppedLeading();
      } catch (err) {
        // A throwing callback must not take the elector down with it.
        this.report(err, "onStoppedLeading callback");
      }
    };
    try {
      const acquiredAt = await this.acquire(signal);
      if (acquiredAt === undefined) return;
      await this.lead(acquiredAt, signal);
      reportStopped();
      if (this.config.releaseOnCancel) await this.release();
    } finally {
      this.stopLeading();
      reportStopped();
    }
  }

  /** Tries at once, then every jittered RetryPeriod; resolves with the start time of the winning attempt. */
  private async acquire(signal: AbortSignal): Promise<number | undefined> {
    for (;;) {
      const startedAt = this.clock.now();
      const ok = await this.attempt(this.tryAcquireOrRenew(signal), signal);
      this.maybeReportTransition();
      // A success that arrived after its own renew deadline is not leadership: the next attempt renews.
      if (ok && this.clock.now() < startedAt + this.config.renewDeadlineMs) {
        this.config.lock.recordEvent("became leader");
        return startedAt;
      }
      const delay = jitter(this.config.retryPeriodMs, JITTER_FACTOR, this.random);
      if (!(await this.clock.sleep(delay, signal))) return undefined;
    }
  }

  /** Leads: starts the callback, renews every RetryPeriod, returns when leadership ends. */
  private async lead(acquiredAt: number, runSignal: AbortSignal): Promise<void> {
    const leading = new AbortController();
    this.leading = leading;
    const onCancel = () => this.stopLeading();
    runSignal.addEventListener("abort", onCancel, { once: true });
    this.armGuard(acquiredAt + this.config.renewDeadlineMs);
    void Promise.resolve()
      .then(() => this.config.callbacks.onStartedLeading(leading.signal))
      .catch((err: unknown) => this.report(err, "onStartedLeading callback"));
    try {
      while (!leading.signal.aborted) {
        if (!(await this.clock.sleep(this.config.retryPeriodMs, leading.signal))) break;
        const startedAt = this.clock.now();
        const ok = await this.attempt(this.tryAcquireOrRenew(leading.signal), leading.signal);
        this.maybeReportTransition();
        if (ok && this.leading === leading) this.armGuard(startedAt + this.config.renewDeadlineMs);
      }
    } finally {
      runSignal.removeEventListener("abort", onCancel);
      this.stopLeading();
    }
  }

  /** (Re)arms the renew-deadline guard; when it fires leadership ends. A deadline in the past ends it now. */
  private armGuard(deadline: number): void {
    this.guard?.stop();
    const delay = deadline - this.clock.now();
    if (delay <= 0) {
      this.stopLeading();
      return;
    }
    this.guard = this.clock.setTimer(delay, () => this.stopLeading());
  }

  /** Ends leadership: disarms the guard and aborts the leading signal. Idempotent. */
  private stopLeading(): void {
    this.guard?.stop();
    this.guard = undefined;
    const leading = this.leading;
    if (!leading) return;
    this.leading = undefined;
    leading.abort();
    this.config.lock.recordEvent("stopped leading");
  }

  /**
   * One attempt to acquire or renew (client-go's `tryAcquireOrRenew`). Returns true if this candidate holds
   * the lock after the attempt. Results that arrive after `signal` aborted change nothing.
   */
  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    const now = this.clock.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: lock.identity(),
      leaseDurationSeconds: leaseDurationSeconds(this.config.leaseDurationMs),
      acquireTime: formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaderTransitions: 0,
    };

    // 1. Fast path: the holder of a still-valid lease updates its cached Lease without reading first.
    const observed = this.observedRecord;
    if (observed && this.isHolder(observed) && this.isLeaseValid(observed, now)) {
      const renewed = {
        ...desired,
        acquireTime: observed.acquireTime,
        leaderTransitions: observed.leaderTransitions,
      };
      if (await this.write(() => lock.update(renewed), renewed, signal)) return true;
      if (signal.aborted) return false;
      // e.g. 409: someone else wrote; fall through to the slow path.
    }

    // 2. Slow path: read the lock; create it if it does not exist.
    let current: Awaited<ReturnType<typeof lock.get>>;
    try {
      current = await lock.get();
    } catch (err) {
      return this.lockFailed(err, "get lease", signal);
    }
    if (signal.aborted) return false;
    if (!current) return this.write(() => lock.create(desired), desired, signal);

    // 3. Restart the local expiry timer whenever the raw record changed since we last looked.
    if (current.raw !== this.observedRaw) this.setObservedRecord(current.record, current.raw);
    const old = current.record;
    if (old.holderIdentity !== "" && this.isLeaseValid(old, now) && !this.isHolder(old)) return false;

    // 4. Take or renew it, guarded by the resourceVersion we just read.
    const next: LeaderElectionRecord = this.isHolder(old)
      ? { ...desired, acquireTime: old.acquireTime, leaderTransitions: old.leaderTransitions }
      : { ...desired, leaderTransitions: old.leaderTransitions + 1 };
    return this.write(() => lock.update(next), next, signal);
  }

  /** One write of `record`; on success, unless `signal` aborted meanwhile, it becomes the observed record. */
  private async write(
    op: () => Promise<void>,
    record: LeaderElectionRecord,
    signal: AbortSignal,
  ): Promise<boolean> {
    try {
      await op();
    } catch (err) {
      return this.lockFailed(err, "write lease", signal);
    }
    if (signal.aborted) return false;
    this.setObservedRecord(record);
    return true;
  }

  /** Release (with `releaseOnCancel`): an empty holder with a 1 s lease, retried for up to RenewDeadline. */
  private async release(): Promise<boolean> {
    const deadline = new AbortController();
    const timer = this.clock.setTimer(this.config.renewDeadlineMs, () => deadline.abort());
    try {
      for (;;) {
        if (await this.attempt(this.tryRelease(deadline.signal), deadline.signal)) return true;
        if (!(await this.clock.sleep(this.config.retryPeriodMs, deadline.signal))) return false;
      }
    } finally {
      timer.stop();
    }
  }

  private async tryRelease(signal: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    let current: Awaited<ReturnType<typeof lock.get>>;
    try {
      current = await lock.get();
    } catch (err) {
      return this.lockFailed(err, "get lease (release)", signal);
    }
    if (!current || !this.isHolder(current.record)) return true;
    const now = formatMicroTime(this.clock.now());
    const released: LeaderElectionRecord = {
      holderIdentity: "",
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: current.record.leaderTransitions,
    };
    try {
      await lock.update(released);
    } catch (err) {
      return this.lockFailed(err, "release lease", signal);
    }
    if (!signal.aborted) this.setObservedRecord(released);
    return true;
  }

  /** One lock attempt, abandoned (false) when `signal` aborts first; a rejected attempt counts as failed. */
  private async attempt(attempt: Promise<boolean>, signal: AbortSignal): Promise<boolean> {
    return (
      (await untilAborted(
        attempt.catch(() => false),
        signal,
      )) ?? false
    );
  }

  private isHolder(record: LeaderElectionRecord): boolean {
    return record.holderIdentity === this.config.lock.identity();
  }

  /** Valid while `observedTime + record.leaseDurationSeconds` (the holder's value) is after `now`. */
  private isLeaseValid(record: LeaderElectionRecord, now: number): boolean {
    return this.observedTime + record.leaseDurationSeconds * 1000 > now;
  }

  /** client-go's `setObservedRecord`: always stamps observedTime with the local clock. */
  private setObservedRecord(record: LeaderElectionRecord, raw = rawRecord(record)): void {
    this.observedRecord = record;
    this.observedRaw = raw;
    this.observedTime = this.clock.now();
  }

  /** client-go's `maybeReportTransition`: tells `onNewLeader` when the observed holder changed. */
  private maybeReportTransition(): void {
    const holder = this.observedRecord?.holderIdentity ?? "";
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    const onNewLeader = this.config.callbacks.onNewLeader;
    if (!onNewLeader) return;
    // Its own microtask, guarded: a throwing callback is reported and cannot take the elector down.
    queueMicrotask(() => {
      try {
        onNewLeader(holder);
      } catch (err) {
        this.report(err, "onNewLeader callback");
      }
    });
  }
}
