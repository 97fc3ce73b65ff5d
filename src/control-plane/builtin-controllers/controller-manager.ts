/**
 * The embedded kube-controller-manager: the control-plane controllers (garbage collector, namespace controller)
 * run only while this process holds the Lease `kube-system/kube-controller-manager`, taken with the workbook's
 * {@link LeaderElector} exactly as kube-controller-manager takes it with client-go (`--leader-elect`, default
 * on; `--leader-elect-lease-duration` 15 s, `--leader-elect-renew-deadline` 10 s, `--leader-elect-retry-period`
 * 2 s). `kubectl get lease -n kube-system` shows the holder and its renewTime moving every retry period.
 *
 * When leadership is lost, kube-controller-manager exits (`leaderelection lost`) and its static Pod is
 * restarted with a fresh identity. The embedded one does the same without a process: it stops its controllers,
 * then campaigns again under a new identity, which must wait for the old lease to expire like any stranger.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import {
  AlreadyRunError,
  type ErrorHandler,
  guardErrorHandler,
  type Runnable,
} from "../../apimachinery/lifecycle.js";
import { whenAborted } from "../../apimachinery/wait/until-aborted.js";
import { type Clock, realClock } from "../../clock/clock.js";
import { LeaderElector } from "../../leaderelection/leader-elector.js";
import { LeaseLock } from "../../leaderelection/lease-lock.js";
import type { ResourceLock } from "../../leaderelection/resource-lock.js";
import {
  type ControlPlaneControllerOptions,
  type StoppableController,
  startControlPlaneControllers,
} from "./control-plane.js";

/** kube-controller-manager's lock: `--leader-elect-resource-namespace` / `--leader-elect-resource-name`. */
export const CONTROLLER_MANAGER_LEASE = {
  namespace: "kube-system",
  name: "kube-controller-manager",
} as const;

/** kube-controller-manager's `--leader-elect-*` flags, durations in milliseconds. */
export interface ControllerManagerLeaderElection {
  /** Lease namespace (default `kube-system`). */
  namespace?: string;
  /** Lease name (default `kube-controller-manager`). */
  name?: string;
  /** Prefix of the identity; each campaign appends `_<uuid>` as kube does (default: this host's name). */
  identityPrefix?: string;
  /** Default 15 s. */
  leaseDurationMs?: number;
  /** Default 10 s. */
  renewDeadlineMs?: number;
  /** Default 2 s. */
  retryPeriodMs?: number;
  /** Clock of the election (default: the real clock, whatever clock the controllers use). */
  clock?: Clock;
  /**
   * Release the lease on stop so a standby takes over at once (client-go's `ReleaseOnCancel`; default true).
   */
  releaseOnCancel?: boolean;
  /** Builds the lock (default: a {@link LeaseLock} against the cluster). Tests inject a wrapped one. */
  lock?: (identity: string) => ResourceLock;
}

/** Options of a {@link ControllerManager}: which controllers, and how it elects. */
export interface ControllerManagerOptions extends ControlPlaneControllerOptions {
  leaderElection?: ControllerManagerLeaderElection;
}

/** One term of leadership, as the controller manager saw it. */
export interface ControllerManagerTerm {
  identity: string;
  /** When the controllers started (the manager's election clock, ms since the epoch). */
  startedAt: number;
  /** When they stopped; undefined while leading. */
  stoppedAt?: number;
}

/**
 * kube-controller-manager's leader-elected main loop, a {@link Runnable}: {@link ControllerManager.run} campaigns
 * until its signal aborts or {@link ControllerManager.stop}, and settles once everything it started has stopped.
 * {@link ControllerManager.start} is that run in the background; it resolves once this manager either leads
 * with its controllers started, or has seen another holder (it is then a standby that takes over when that lease
 * expires). A second `start()` returns the same promise; a second `run()` rejects with `AlreadyRunError`.
 */
export class ControllerManager implements StoppableController, Runnable {
  private readonly stopper = new AbortController();
  private readonly onError: ErrorHandler;
  private readonly clock: Clock;
  private elector: LeaderElector | undefined;
  private loop: Promise<void> | undefined;
  private ready: Promise<void> | undefined;
  private currentIdentity = "";
  private readonly history: ControllerManagerTerm[] = [];

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly options: ControllerManagerOptions = {},
  ) {
    this.onError = guardErrorHandler(options.onError);
    this.clock = options.leaderElection?.clock ?? realClock;
  }

  /** The identity of the current campaign (`<host>_<uuid>`); "" before start. */
  identity(): string {
    return this.currentIdentity;
  }

  /** True while this manager holds the lease and runs its controllers. */
  isLeader(): boolean {
    return this.elector?.isLeader() ?? false;
  }

  /** Every term this manager led so far, oldest first (copies). */
  terms(): ControllerManagerTerm[] {
    return this.history.map((t) => ({ ...t }));
  }

  /**
   * Runs in the background; resolves when leading with controllers started, or when another holder was observed.
   * Calling it again returns the same promise.
   */
  start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      this.loop = this.campaignLoop(resolve, reject).catch((err: unknown) => {
        this.onError(err, { component: "kube-controller-manager", operation: "campaign" });
        reject(err);
      });
    });
    return this.ready;
  }

  /**
   * Campaigns until `signal` aborts or {@link stop}; settles once the controllers and the elector have stopped.
   * Once only (after `start()` or `stop()` too), as every runnable.
   */
  async run(signal?: AbortSignal): Promise<void> {
    if (this.ready || this.stopper.signal.aborted) throw new AlreadyRunError("kube-controller-manager");
    if (signal?.aborted) return this.stop();
    signal?.addEventListener("abort", () => void this.stop(), { once: true });
    await this.start();
    await this.loop;
  }

  /** Stops campaigning, stops the controllers and (by default) releases the lease. Idempotent. */
  async stop(): Promise<void> {
    this.stopper.abort();
    await this.elector?.stop();
    await this.loop;
  }

  private async campaignLoop(ready: () => void, failed: (err: unknown) => void): Promise<void> {
    const election = this.options.leaderElection ?? {};
    const signal = this.stopper.signal;
    let first = true;
    while (!signal.aborted) {
      const identity = `${election.identityPrefix ?? hostname()}_${randomUUID()}`;
      this.currentIdentity = identity;
      let term: Promise<void> = Promise.resolve();
      let termError: unknown;
      const elector = new LeaderElector({
        lock:
          election.lock?.(identity) ??
          new LeaseLock(this.kubeConfig, {
            namespace: election.namespace ?? CONTROLLER_MANAGER_LEASE.namespace,
            name: election.name ?? CONTROLLER_MANAGER_LEASE.name,
            identity,
          }),
        leaseDurationMs: election.leaseDurationMs,
        renewDeadlineMs: election.renewDeadlineMs,
        retryPeriodMs: election.retryPeriodMs,
        releaseOnCancel: election.releaseOnCancel ?? true,
        clock: this.clock,
        name: "kube-controller-manager",
        onError: this.options.onError,
        callbacks: {
          onStartedLeading: (leading) => {
            term = this.lead(identity, leading, ready).catch((err: unknown) => {
              // Controllers that cannot start end the term, as a crashing kube-controller-manager would.
              termError = err;
              void elector.stop();
            });
          },
          onStoppedLeading: () => {},
          onNewLeader: (holder) => {
            if (holder !== "" && holder !== identity) ready();
          },
        },
      });
      this.elector = elector;
      await elector.run(signal);
      await term;
      if (first && termError !== undefined) {
        failed(termError);
        return;
      }
      first = false;
      if (termError !== undefined) {
        this.onError(termError, { component: "kube-controller-manager", operation: "start controllers" });
      }
      // Lost the lease (or stopped): a restarted kube-controller-manager waits a retry period, then campaigns.
      if (!(await this.clock.sleep(elector.config.retryPeriodMs, signal))) break;
    }
    ready();
  }

  /** One term: starts the controllers, runs them until `leading` aborts, stops them. */
  private async lead(identity: string, leading: AbortSignal, ready: () => void): Promise<void> {
    const { leaderElection: _, ...controllerOptions } = this.options;
    const controllers = await startControlPlaneControllers(this.kubeConfig, controllerOptions);
    const term: ControllerManagerTerm = { identity, startedAt: this.clock.now() };
    this.history.push(term);
    ready();
    await whenAborted(leading);
    await Promise.all(controllers.map((c) => c.stop()));
    term.stoppedAt = this.clock.now();
  }
}
