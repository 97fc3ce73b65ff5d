/**
 * The two tracks a controller lab is graded on, behind one interface: the TypeScript track (the learner's
 * factory, called in the grading worker) and the Go track (the learner's controller-runtime program, a process
 * per instance, support/go-track.ts). A grader written against {@link ControllerTrack} states its requirements
 * once and grades both with the same checks and hints.
 */
import type { Cluster } from "../../../control-plane/cluster/index.js";
import { buildGoLab, isGoTrack } from "../../grading/go-build.js";
import { GoLabController } from "./go-track.js";
import { importLab, type LabController, type LabControllerOptions } from "./scenario.js";

/** One instance of the learner's controller as a grader drives it, with the reconciles it has made. */
export interface GradedController extends LabController {
  /** Reconciles so far (the TypeScript track counts `onReconcile` calls; the Go track reads the metrics). */
  reconciles(): Promise<number>;
  /**
   * Reconciles so far by key, where the track can tell them apart (the TypeScript track: the key passed to
   * `onReconcile`; the Go track counts only totals, so it leaves this out).
   */
  reconcilesByKey?(): Promise<Map<string, number>>;
}

/**
 * What a lab hands its controller besides the cluster and the namespace (lab 07: the fake cloud): `options` go
 * into the TypeScript factory's options, `env` into the Go program's environment.
 */
export interface LaunchExtras {
  options?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** How a grader makes instances of the learner's controller, whichever language it is written in. */
export interface ControllerTrack {
  readonly language: "typescript" | "go";
  /** How reconciles are counted, for messages: "reported through onReconcile". */
  readonly counting: string;
  /** What to do when no reconcile was counted at all. */
  readonly noReconciles: string;
  /** A new, not yet started instance watching `namespace` of `cluster`. */
  launch(cluster: Cluster, namespace: string, extras?: LaunchExtras): GradedController;
}

class InProcessController implements GradedController {
  private count = 0;
  private readonly byKey = new Map<string, number>();
  private readonly inner: LabController;

  constructor(
    make: (options: LabControllerOptions) => LabController,
    cluster: Cluster,
    namespace: string,
    extras: Record<string, unknown> = {},
  ) {
    this.inner = make({
      ...extras,
      kubeConfig: cluster.kubeConfig,
      namespace,
      onReconcile: (key: string) => {
        this.count++;
        this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
      },
    });
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }

  async reconciles(): Promise<number> {
    return this.count;
  }

  async reconcilesByKey(): Promise<Map<string, number>> {
    return new Map(this.byKey);
  }
}

/**
 * The track of the lab folder `dir`: Go when it holds a go.mod (the program is built, or found in the build
 * cache), else TypeScript, whose module `file` is imported and `factoryOf` picks the factory from it.
 */
export async function openTrack<M>(
  dir: string,
  factoryOf: (mod: M) => (options: LabControllerOptions) => LabController,
  file = "controller.js",
): Promise<ControllerTrack> {
  if (isGoTrack(dir)) {
    const { binary } = await buildGoLab(dir);
    return {
      language: "go",
      counting: "counted by controller_runtime_reconcile_total",
      noReconciles:
        "register the controller with the manager in SetupWithManager (ctrl.NewControllerManagedBy)",
      launch: (cluster, namespace, extras) =>
        new GoLabController(binary, {
          kubeconfigPath: cluster.kubeconfigPath,
          namespace,
          env: extras?.env ?? {},
        }),
    };
  }
  const make = factoryOf(await importLab<M>(dir, file));
  return {
    language: "typescript",
    counting: "reported through onReconcile",
    noReconciles: "call options.onReconcile(key) at the start of every reconcile",
    launch: (cluster, namespace, extras) =>
      new InProcessController(make, cluster, namespace, extras?.options),
  };
}

/** Builds the Go track's program before any check runs (a cold build takes minutes, longer than a check). */
export async function prepareTrack(dir: string): Promise<void> {
  if (isGoTrack(dir)) await buildGoLab(dir);
}
