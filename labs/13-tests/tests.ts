/**
 * LAB 13: what you write. Tests of the ConfigSet controller in `controller.ts`: the grader runs them against
 * that controller (every test must pass, also when the API server answers late) and against copies of it with
 * one bug each (at least one test must fail on each copy). Import the controller from "./controller.js".
 *
 * Each test gets `t.kubeConfig` (a cluster), `t.namespace` (a fresh namespace) and `t.defer(fn)` (cleanup run
 * when the test ends). `testing.ts` gives you `FakeWrites` (records every write) and `intercept` (409s, latency);
 * `kube-controller-workbook/grading` gives you `eventually`, `consistently` and `expectEqual`.
 */
import type { ControllerTest } from "./testing.js";

export const tests: ControllerTest[] = [
  // TODO: unit tests of reconcileConfigSet on FakeWrites: from nothing (which writes, in which order?), a second
  //   pass on a converged ConfigSet, a labelled orphan, a spec edit, a cache that lags behind its own creates,
  //   a 409 on an update, a ConfigSet being deleted.
  // TODO: cluster tests with startConfigSetController (stop it with t.defer): it converges; a child deleted or
  //   edited by someone else comes back; a deleted ConfigSet goes away with its children.
  // TODO: a fault test: 409s injected with intercept(apiWrites(t.kubeConfig)), and the edit still lands.
];
