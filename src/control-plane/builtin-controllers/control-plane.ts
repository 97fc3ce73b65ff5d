/**
 * Starts the control-plane controllers a kube-controller-manager would run next to an API server: the
 * {@link GarbageCollector} and the {@link NamespaceController}. Each can be switched off (a lab that writes
 * its own garbage collector turns the built-in one off).
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ErrorHandler } from "../../apimachinery/lifecycle.js";
import type { Clock } from "../../clock/clock.js";
import { GarbageCollector } from "./garbage-collector/garbage-collector.js";
import { NamespaceController } from "./namespace/namespace-controller.js";

/** Which controllers to start (each defaults to on). */
export interface ControlPlaneControllerOptions {
  garbageCollector?: boolean;
  namespace?: boolean;
  clock?: Clock;
  /** Given to each controller (see `src/apimachinery/lifecycle.ts`). */
  onError?: ErrorHandler;
}

/** Something started that must be stopped. */
export interface StoppableController {
  stop(): Promise<void>;
}

/** Starts the selected controllers against `kubeConfig`; stop each one returned (in any order). */
export async function startControlPlaneControllers(
  kubeConfig: KubeConfig,
  options: ControlPlaneControllerOptions = {},
): Promise<StoppableController[]> {
  const started: StoppableController[] = [];
  const common = { kubeConfig, clock: options.clock, onError: options.onError };
  try {
    if (options.garbageCollector !== false) {
      const gc = new GarbageCollector(common);
      started.push(gc);
      await gc.start();
    }
    if (options.namespace !== false) {
      const nc = new NamespaceController(common);
      started.push(nc);
      nc.start();
    }
  } catch (err) {
    await Promise.all(started.map((c) => c.stop()));
    throw err;
  }
  return started;
}
