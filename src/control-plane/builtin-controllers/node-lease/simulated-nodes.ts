/**
 * Simulated kubelets: each one keeps its node's Lease in `kube-node-lease` renewed, as the kubelet's node lease
 * controller does (`pkg/kubelet/nodelease`, `k8s.io/component-helpers/apimachinery/lease`). The Lease is named
 * after the node, `holderIdentity` is the node name, `leaseDurationSeconds` is `--node-lease-duration-seconds`
 * (default 40) and the kubelet renews `renewTime` every quarter of it (10 s). That renewal is the node's
 * heartbeat: the node lifecycle controller reads it (see {@link NodeLeaseMonitor}) instead of the much larger
 * Node status, which the kubelet now posts only when something changed or every few minutes.
 *
 * What is left out: there is no Node object (the embedded server does not serve Nodes), so the Lease has no
 * ownerReference to one; failed renewals are retried at the next interval rather than with the kubelet's own
 * backoff (200 ms doubling up to 7 s).
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { CoordinationV1Api } from "@kubernetes/client-node";
import { isConflict } from "../../../apimachinery/errors.js";
import {
  AlreadyRunError,
  type ErrorHandler,
  guardErrorHandler,
  type Runnable,
} from "../../../apimachinery/lifecycle.js";
import { type Clock, realClock, type Timer } from "../../../clock/clock.js";
import { formatMicroTime } from "../../../leaderelection/leader-election-record.js";
import { CoordinationLeaseEndpoint } from "../../../leaderelection/lease-lock.js";
import type { LeaseEndpoint, LeaseObject } from "../../../leaderelection/lease-object-lock.js";

/** Where node Leases live (`v1.NamespaceNodeLease`). */
export const NODE_LEASE_NAMESPACE = "kube-node-lease";
/** The kubelet's `--node-lease-duration-seconds` default. */
export const DEFAULT_NODE_LEASE_DURATION_SECONDS = 40;
/** The kubelet renews its Lease every this fraction of the lease duration (`renewIntervalFraction`). */
export const NODE_LEASE_RENEW_INTERVAL_FRACTION = 0.25;

/** Options of {@link SimulatedNodes}. */
export interface SimulatedNodesOptions {
  /** Node names (default: `count` names `workbook-node-1`, `workbook-node-2`...). */
  names?: readonly string[];
  /** How many nodes when `names` is not given (default 3). */
  count?: number;
  /** Written as `leaseDurationSeconds` (default 40, whole seconds as in the API). */
  leaseDurationSeconds?: number;
  /** Milliseconds between renewals (default a quarter of the lease duration). */
  renewInterval?: number;
  clock?: Clock;
  /** Failed renewals other than 409 Conflict (default: one line on stderr). */
  onError?: ErrorHandler;
  /** The Lease API (default: the cluster's, through client-node). */
  endpoint?: LeaseEndpoint;
}

interface NodeState {
  cached: LeaseObject | undefined;
  paused: boolean;
  renewals: number;
  inFlight: Promise<void> | undefined;
  timer: Timer | undefined;
}

/**
 * A set of simulated kubelets renewing their node Leases. {@link SimulatedNodes.pause} stops one node's
 * heartbeat (a kubelet that hung, or lost its connection to the API server) without touching its Lease, so
 * the Lease simply goes stale; {@link SimulatedNodes.resume} starts renewing again. A {@link Runnable}:
 * `run(signal)` renews until `signal` aborts or `stop()`; `start()` is that run in the background and resolves
 * after every node's first renewal (a second `start()` returns the same promise).
 */
export class SimulatedNodes implements Runnable {
  readonly names: readonly string[];
  readonly leaseDurationSeconds: number;
  readonly renewInterval: number;
  private readonly clock: Clock;
  private readonly endpoint: LeaseEndpoint;
  private readonly onError: ErrorHandler;
  private readonly nodes = new Map<string, NodeState>();
  private stopped = false;
  private started: Promise<void> | undefined;
  private readonly stopper = new AbortController();

  /** `kubeConfig` may be undefined when `options.endpoint` is given. */
  constructor(kubeConfig: KubeConfig | undefined, options: SimulatedNodesOptions = {}) {
    const count = options.count ?? 3;
    this.names = options.names
      ? [...options.names]
      : Array.from({ length: count }, (_, i) => `workbook-node-${i + 1}`);
    if (new Set(this.names).size !== this.names.length)
      throw new Error("simulated nodes: names must be unique");
    this.leaseDurationSeconds = options.leaseDurationSeconds ?? DEFAULT_NODE_LEASE_DURATION_SECONDS;
    if (!Number.isInteger(this.leaseDurationSeconds) || this.leaseDurationSeconds < 1) {
      throw new Error(`simulated nodes: leaseDurationSeconds must be a whole number >= 1`);
    }
    this.renewInterval =
      options.renewInterval ?? this.leaseDurationSeconds * 1000 * NODE_LEASE_RENEW_INTERVAL_FRACTION;
    if (!(this.renewInterval > 0)) throw new Error("simulated nodes: renewInterval must be > 0");
    this.clock = options.clock ?? realClock;
    this.onError = guardErrorHandler(options.onError);
    if (options.endpoint) this.endpoint = options.endpoint;
    else if (kubeConfig)
      this.endpoint = new CoordinationLeaseEndpoint(kubeConfig.makeApiClient(CoordinationV1Api));
    else throw new Error("simulated nodes: need a kubeConfig or an endpoint");
    for (const name of this.names) {
      this.nodes.set(name, {
        cached: undefined,
        paused: false,
        renewals: 0,
        inFlight: undefined,
        timer: undefined,
      });
    }
  }

  /**
   * Creates (or takes over) every node's Lease with a first renewal, then renews each on its interval in the
   * background. Resolves after the first renewals; calling it again returns the same promise.
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      await Promise.all(this.names.map((name) => this.renewNow(name)));
      if (!this.stopped) for (const name of this.names) this.schedule(name);
    })();
    return this.started;
  }

  /** Renews until `signal` aborts or {@link stop}; settles once no renewal is left running. Once only. */
  async run(signal?: AbortSignal): Promise<void> {
    if (this.started || this.stopped) throw new AlreadyRunError("simulated nodes");
    if (signal?.aborted) return this.stop();
    signal?.addEventListener("abort", () => void this.stop(), { once: true });
    await this.start();
    if (!this.stopper.signal.aborted) {
      await new Promise<void>((resolve) =>
        this.stopper.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
    }
    await this.stop();
  }

  /** Stops renewing `name`: its Lease stays as last written and goes stale. */
  pause(name: string): void {
    this.state(name).paused = true;
  }

  /** Renews `name` again, at once and then on its interval. */
  async resume(name: string): Promise<void> {
    const state = this.state(name);
    state.paused = false;
    await this.renewNow(name);
  }

  /** True while `name` is paused. */
  isPaused(name: string): boolean {
    return this.state(name).paused;
  }

  /** Successful renewals (the create included) of `name` so far. */
  renewals(name: string): number {
    return this.state(name).renewals;
  }

  /** Stops every renewal timer and waits for renewals in flight. Leases stay (a stopped kubelet's do too). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopper.abort();
    for (const state of this.nodes.values()) state.timer?.stop();
    await Promise.all([...this.nodes.values()].map((s) => s.inFlight));
  }

  private state(name: string): NodeState {
    const state = this.nodes.get(name);
    if (!state) throw new Error(`simulated nodes: no node named ${name}`);
    return state;
  }

  private schedule(name: string): void {
    const state = this.state(name);
    if (this.stopped) return;
    state.timer = this.clock.setTimer(this.renewInterval, () => {
      if (this.stopped) return;
      void (state.paused ? Promise.resolve() : this.renewNow(name)).then(() => this.schedule(name));
    });
  }

  /** One renewal of `name` (at most one in flight per node). */
  private renewNow(name: string): Promise<void> {
    const state = this.state(name);
    if (this.stopped || state.paused) return Promise.resolve();
    state.inFlight ??= this.renew(name, state).finally(() => {
      state.inFlight = undefined;
    });
    return state.inFlight;
  }

  private async renew(name: string, state: NodeState): Promise<void> {
    const renewTime = formatMicroTime(this.clock.now());
    try {
      const base = state.cached ?? (await this.endpoint.read(NODE_LEASE_NAMESPACE, name));
      const spec = { holderIdentity: name, leaseDurationSeconds: this.leaseDurationSeconds, renewTime };
      state.cached = base
        ? await this.endpoint.replace({ ...base, spec: { ...base.spec, ...spec } })
        : await this.endpoint.create({ metadata: { name, namespace: NODE_LEASE_NAMESPACE }, spec });
      state.renewals++;
    } catch (err) {
      // A stale cached Lease (someone else wrote it): read it again at the next renewal.
      state.cached = undefined;
      if (!isConflict(err))
        this.onError(err, { component: `kubelet ${name}`, operation: "renew node lease" });
    }
  }
}
