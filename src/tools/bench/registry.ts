/**
 * Every benchmark family, loaded lazily, in report order. `workbook bench` reads names and titles from here;
 * {@link runFamilyInFreshProcess} loads one family by its index in a child process.
 */
import type { Benchmark } from "./types.js";

/** The families' modules, in report order. */
export const FAMILY_MODULES: ReadonlyArray<() => Promise<{ benchmark: Benchmark }>> = [
  () => import("./families/client-go.js"),
  () => import("./families/watch-vs-poll.js"),
  () => import("./families/cache-vs-live.js"),
  () => import("./families/leader-election.js"),
  () => import("./families/backends.js"),
  () => import("./families/scale.js"),
  () => import("./families/http2.js"),
  () => import("./apiserver.js"),
  () => import("./workqueue.js"),
  () => import("./controller.js"),
  () => import("./control-plane.js"),
  () => import("./families/learners-wait.js"),
];

/** Every family, loaded. */
export function loadFamilies(): Promise<Benchmark[]> {
  return Promise.all(FAMILY_MODULES.map(async (load) => (await load()).benchmark));
}
