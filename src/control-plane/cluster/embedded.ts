/**
 * The `embedded` cluster backend (the default): the workbook's own API server, in this process, over the
 * in-memory backend. `startCluster()` returns it with `instruments` (metrics and fault injection), which
 * no other backend has.
 *
 * The control plane: kube-controller-manager runs the garbage collector and the namespace controller next
 * to a real kube-apiserver. The embedded control plane runs the workbook's own versions of them (written
 * with the informer machinery) when they exist; `controllers` switches each one off so a lab can run its own.
 * Like kube-controller-manager they run under a Lease (`kube-system/kube-controller-manager`), and the `nodes`
 * option adds simulated kubelets renewing their node Leases in `kube-node-lease`, so `kubectl get lease -A`
 * shows both uses of the primitive. See {@link startControlPlane}.
 */

import type { ErrorHandler } from "../../apimachinery/lifecycle.js";
import type { Clock } from "../../clock/clock.js";
import { createBackend } from "../apiserver/backend.js";
import type { Instruments } from "../apiserver/instruments/instruments.js";
import { EmbeddedApiServer } from "../apiserver/server.js";
import type { ApiBackend } from "../apiserver/types.js";
import { startControlPlaneControllers } from "../builtin-controllers/control-plane.js";
import {
  ControllerManager,
  type ControllerManagerLeaderElection,
} from "../builtin-controllers/controller-manager.js";
import {
  SimulatedNodes,
  type SimulatedNodesOptions,
} from "../builtin-controllers/node-lease/simulated-nodes.js";
import type { BackendStartOptions, Cluster } from "./cluster-types.js";

/** Which control-plane controllers the embedded backend runs (each defaults to on once it exists). */
export interface ControlPlaneControllers {
  /** The garbage collector (ownerReferences, propagation policies). */
  garbageCollector?: boolean;
  /** The namespace controller (deletes a Terminating namespace's content, then the namespace). */
  namespace?: boolean;
}

/** Options of the embedded backend (`startCluster({embedded: {...}})`). */
export interface EmbeddedClusterOptions {
  /** Clock for watch timeouts and injected latency (default the real clock). */
  clock?: Clock;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Port (default: random). */
  port?: number;
  /** A backend to serve instead of a fresh in-memory one. */
  backend?: ApiBackend;
  /** Control-plane controllers to run. */
  controllers?: ControlPlaneControllers;
  /**
   * kube-controller-manager's `--leader-elect`: the controllers run only while the embedded controller manager
   * holds the Lease `kube-system/kube-controller-manager` (defaults 15 s / 10 s / 2 s, one renewal PUT every
   * retry period). On by default whenever a controller runs; `false` runs the controllers without a Lease.
   */
  leaderElection?: false | ControllerManagerLeaderElection;
  /**
   * Simulated kubelets renewing node Leases in `kube-node-lease` (off by default). `{}` starts three nodes with
   * the kubelet's defaults (40 s leases renewed every 10 s); `cluster.nodes` pauses and resumes them.
   */
  nodes?: SimulatedNodesOptions;
  /**
   * Where the control plane's own controllers (garbage collector, namespace controller, controller manager)
   * report the errors they survive, such as a watch their informer restarts: kube-controller-manager writes
   * these to its own log, never to a client's. Default: one line on stderr each. A grader passes a handler
   * that drops them, so a learner's grade shows only what the learner's controller did.
   */
  onError?: ErrorHandler;
}

/** A {@link Cluster} from the embedded backend: instruments are always there. */
export interface EmbeddedCluster extends Cluster<Instruments> {
  readonly instruments: Instruments;
  /** The server itself (URL, CA, token) for tools that need them. */
  readonly server: EmbeddedApiServer;
  /** The leader-elected controller manager; undefined with `leaderElection: false` or no controllers. */
  readonly controllerManager: ControllerManager | undefined;
  /** The simulated kubelets' node Leases; undefined unless the `nodes` option was given. */
  readonly nodes: SimulatedNodes | undefined;
}

/** Something started next to the server that must be stopped with it. */
export interface ControlPlaneComponent {
  stop(): Promise<void> | void;
}

/**
 * Starts the control-plane controllers selected in `controllers` against the running server: the garbage
 * collector and the namespace controller of `src/control-plane/builtin-controllers` (each on unless switched off). With
 * leader election (the default whenever a controller is selected) they run inside a {@link ControllerManager}
 * that holds `kube-system/kube-controller-manager`; the result then is that manager alone.
 */
export async function startControlPlane(
  server: EmbeddedApiServer,
  controllers: ControlPlaneControllers,
  leaderElection: false | ControllerManagerLeaderElection = {},
  onError?: ErrorHandler,
): Promise<ControlPlaneComponent[]> {
  const any = controllers.garbageCollector !== false || controllers.namespace !== false;
  const reporting = onError ? { onError } : {};
  if (!any || leaderElection === false)
    return startControlPlaneControllers(server.kubeConfig(), { ...controllers, ...reporting });
  const manager = new ControllerManager(server.kubeConfig(), {
    ...controllers,
    ...reporting,
    leaderElection,
  });
  try {
    await manager.start();
  } catch (err) {
    await manager.stop();
    throw err;
  }
  return [manager];
}

/** Starts the embedded API server and returns a Cluster. Registered as the `embedded` backend. */
export async function startEmbeddedCluster(
  options: BackendStartOptions & { embedded?: EmbeddedClusterOptions } = {},
): Promise<EmbeddedCluster> {
  const opts = options.embedded ?? {};
  const backend = opts.backend ?? createBackend(opts.clock ? { clock: opts.clock } : {});
  const server = new EmbeddedApiServer({
    backend,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
  });
  await server.start();
  let components: ControlPlaneComponent[] = [];
  let nodes: SimulatedNodes | undefined;
  try {
    components = await startControlPlane(server, opts.controllers ?? {}, opts.leaderElection, opts.onError);
    if (opts.nodes) {
      nodes = new SimulatedNodes(server.kubeConfig(), {
        ...opts.nodes,
        ...(opts.onError && !opts.nodes.onError ? { onError: opts.onError } : {}),
      });
      components.push(nodes);
      await nodes.start();
    }
  } catch (err) {
    for (const c of components.reverse()) await c.stop();
    await server.stop();
    throw err;
  }
  options.log?.(`embedded: API server at ${server.url}, kubeconfig ${server.kubeconfigPath}`);
  let stopping: Promise<void> | undefined;
  return {
    backend: "embedded",
    kubeConfig: server.kubeConfig(),
    kubeconfigPath: server.kubeconfigPath,
    instruments: server.instruments as Instruments,
    server,
    controllerManager: components.find((c): c is ControllerManager => c instanceof ControllerManager),
    nodes,
    stop() {
      stopping ??= (async () => {
        for (const c of components.reverse()) await c.stop();
        await server.stop();
        // A backend we created is ours to stop; one passed in belongs to the caller.
        if (!opts.backend) backend.stop?.();
      })();
      return stopping;
    },
  };
}
