/**
 * The scenario of a lab graded on both tracks (TypeScript and Go): a fresh namespace on the grading cluster,
 * the instances of the learner's controller started in it, and their reconciles, counted the track's way.
 * A grader extends it with the objects and waits of its own lab.
 */
import type { Cluster } from "../../../control-plane/cluster/index.js";
import type { GradingCluster } from "./grading-cluster.js";
import type { Scenario } from "./scenario.js";
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

  /** "N reconciles reported through onReconcile" (or counted from the Go program's metrics). */
  async describeReconciles(): Promise<string> {
    return `${await this.reconciles()} reconciles ${this.track.counting}`;
  }

  /** Clears the faults this scenario injected and stops every instance. */
  async close(): Promise<void> {
    this.cluster.instruments?.faults.clear();
    await Promise.all(this.instances.map((i) => i.stop().catch(() => {})));
  }
}
