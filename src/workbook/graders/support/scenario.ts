/**
 * The scaffolding every lab grader shares, written once: a check opens its own scenario (a fresh namespace, the
 * learner's code loaded from the lab folder, whatever the lab drives it with), runs, and closes it whatever
 * happened, as envtest's `BeforeEach`/`AfterEach` give each Ginkgo spec of a controller-runtime project its own
 * objects on a shared control plane (the shared control plane is `gradingCluster`, support/grading-cluster.ts).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { KubeConfig } from "@kubernetes/client-node";

/** One check's world. `close()` undoes what opening it started (controllers, watches, faults), best effort. */
export interface Scenario {
  close(): Promise<void>;
}

/**
 * Runs `body` on the scenario `opening` resolves to, then closes the scenario, also when `body` throws (the
 * check's failure is what `body` threw, not an error from closing). A scenario that fails to open is the
 * check's failure.
 */
export async function withScenario<S extends Scenario>(
  opening: Promise<S>,
  body: (s: S) => Promise<void>,
): Promise<void> {
  const s = await opening;
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/**
 * Imports `file` (e.g. `controller.js`) from the lab folder `dir` being graded; the grading worker's module
 * hooks find the learner's `controller.ts` behind it and transpile it. `M` is what the lab's README promises the
 * module exports (each grader states it as a type next to its checks).
 */
export async function importLab<M>(dir: string, file: string): Promise<M> {
  return (await import(pathToFileURL(join(dir, file)).href)) as M;
}

/** Resolves after `ms` of real time: how long a grader lets the learner's code run before it looks. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A controller the learner's factory built (labs 05 to 08), as the grader drives it: `start()` resolves once its
 * caches have synced (controller-runtime's manager starts informers, waits for sync, then starts workers);
 * `stop()` resolves once workers and informers have stopped.
 */
export interface LabController {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What the grader passes a lab's controller factory: where to work, and a hook called at every reconcile. */
export interface LabControllerOptions {
  kubeConfig: KubeConfig;
  /** The one namespace to watch (the grader makes a fresh one per check). */
  namespace: string;
  /** Called once at the start of every reconcile, with the key. */
  onReconcile?: (key: string) => void;
}
