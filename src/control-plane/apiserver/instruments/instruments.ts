/**
 * `cluster.instruments` of the embedded backend: the server's {@link ApiMetrics} and {@link FaultInjector}
 * in one object. Only the embedded server has them: a real cluster offers neither, so code under test must
 * never depend on them (conformance tests skip what needs them).
 */
import type { Clock } from "../../../clock/clock.js";
import { FaultInjector, type FaultTargets } from "./faults.js";
import { ApiMetrics } from "./metrics.js";

/** Metrics and faults of one embedded API server. */
export class Instruments {
  /** Request counts, bytes, watches. */
  readonly metrics = new ApiMetrics();
  /** Fault injection. */
  readonly faults: FaultInjector;

  constructor(targets: FaultTargets, clock: Clock) {
    this.faults = new FaultInjector(targets, clock);
  }

  /** Clears every fault and resets the metrics: a clean slate between notebook cells or tests. */
  clear(): void {
    this.faults.clear();
    this.metrics.reset();
  }
}
