/**
 * The scenario of a lab graded on both tracks (TypeScript and Go): a fresh namespace on the grading cluster,
 * the instances of the learner's controller started in it, and their reconciles, counted the track's way.
 * A grader extends it with the objects and waits of its own lab.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import type { Cluster } from "../../../control-plane/cluster/index.js";
import { configSetClient } from "../../workbook-api/index.js";
import type { GradingCluster } from "./grading-cluster.js";
import { type Scenario, sleep } from "./scenario.js";
import type { ControllerTrack, GradedController, LaunchExtras } from "./tracks.js";

/** Where a track scenario runs: the cluster (faults cleared), its namespace, and the learner's track. */
export interface TrackScenarioPlace {
  cluster: Cluster;
  namespace: string;
  track: ControllerTrack;
}

/**
 * Opens the place of one requirement: the cluster with no faults left over from another requirement, and a
 * namespace of its own.
 */
export async function openTrackScenario(
  grading: GradingCluster<Cluster>,
  track: Promise<ControllerTrack>,
  label: string,
): Promise<TrackScenarioPlace> {
  const opened = await track;
  const cluster = await grading.get();
  cluster.instruments?.faults.clear();
  return { cluster, namespace: await grading.newNamespace(label), track: opened };
}

/**
 * How long a controller may do nothing (no reconcile, no write) while the state it should reach is missing before
 * a wait is decided: a level-triggered controller that is quiet this long with work left will not come back to it.
 */
export const QUIET_MS = 3000;

/** What {@link TrackScenario.waitFor} waits for, and how it tells a working controller from an idle one. */
export interface WaitFor {
  /** Why the state is not reached yet (as a sentence for the learner), or `undefined` once it is. */
  missing: () => Promise<string | undefined>;
  /** The controller's writes the server counted so far (`undefined` on a backend without request counts). */
  writes: () => number | undefined;
  /** The state, for the messages: "converged", "reported". */
  state: string;
  /** What {@link writes} counts, for the messages: "write", "status write". */
  writeKind: string;
  /** ms; default 8000. */
  timeout?: number;
}

/** Instances of the learner's controller in one namespace, and how many reconciles they made. */
export class TrackScenario implements Scenario {
  readonly cluster: Cluster;
  readonly namespace: string;
  readonly track: ControllerTrack;
  readonly instances: GradedController[] = [];

  constructor(place: TrackScenarioPlace) {
    this.cluster = place.cluster;
    this.namespace = place.namespace;
    this.track = place.track;
  }

  /** Starts a new instance (its caches synced) and keeps it, to be stopped by {@link close}. */
  async startController(extras?: LaunchExtras): Promise<GradedController> {
    const instance = this.track.launch(this.cluster, this.namespace, extras);
    this.instances.push(instance);
    await instance.start();
    return instance;
  }

  /** Reconciles of every instance started so far (a stopped one keeps its last count). */
  async reconciles(): Promise<number> {
    let total = 0;
    for (const instance of this.instances) total += await instance.reconciles();
    return total;
  }

  /**
   * Reconciles of every instance so far, by key. Only a track that tells keys apart has them (the TypeScript
   * track); on another this throws, so a grader that needs it grades that track only.
   */
  async reconcilesByKey(): Promise<Map<string, number>> {
    const total = new Map<string, number>();
    for (const instance of this.instances) {
      if (!instance.reconcilesByKey)
        throw new Error(`the ${this.track.language} track counts no reconciles by key`);
      for (const [key, n] of await instance.reconcilesByKey()) total.set(key, (total.get(key) ?? 0) + n);
    }
    return total;
  }

  /** "N reconciles reported through onReconcile" (or counted from the Go program's metrics). */
  async describeReconciles(): Promise<string> {
    return `${await this.reconciles()} reconciles ${this.track.counting}`;
  }

  /**
   * Polls until `wait.missing` finds nothing. Fails at the timeout, or earlier, once the state is still missing
   * and the controller has done nothing for {@link QUIET_MS} (no reconcile, no write): then nothing will change it.
   * Both failures say what was missing last and how many reconciles there were.
   */
  async waitFor(wait: WaitFor): Promise<void> {
    const timeout = wait.timeout ?? 8000;
    const started = Date.now();
    const activity = async () => `${await this.reconciles()}/${wait.writes()}`;
    let lastSeen = await activity();
    let lastActive = started;
    for (;;) {
      const why = await wait.missing();
      if (why === undefined) return;
      const now = Date.now();
      const seen = await activity();
      if (seen !== lastSeen) {
        lastSeen = seen;
        lastActive = now;
      }
      const reconciles = await this.describeReconciles();
      if (now - lastActive >= QUIET_MS)
        throw new Error(
          `not ${wait.state}: ${why}, and the controller has done nothing for ${QUIET_MS / 1000} s (no reconcile, no ${wait.writeKind}), so nothing will change it (${reconciles})`,
        );
      if (now - started >= timeout) throw new Error(`after ${timeout} ms: ${why} (${reconciles})`);
      await sleep(50);
    }
  }

  /** Clears the faults this scenario injected and stops every instance. */
  async close(): Promise<void> {
    this.cluster.instruments?.faults.clear();
    await Promise.all(this.instances.map((i) => i.stop().catch(() => {})));
  }
}

/**
 * A track scenario of the ConfigSet labs (05, 06, 11): the core API for the children and the ConfigSet client, both
 * as the grader's own managers use them.
 */
export class ConfigSetScenario extends TrackScenario {
  readonly core: CoreV1Api;
  readonly sets: ReturnType<typeof configSetClient>;

  constructor(place: TrackScenarioPlace) {
    super(place);
    this.core = this.cluster.kubeConfig.makeApiClient(CoreV1Api);
    this.sets = configSetClient(this.cluster.kubeConfig);
  }
}
