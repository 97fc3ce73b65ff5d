/**
 * The benchmark contract. Each area contributes one module under `src/bench/` exporting a {@link Benchmark};
 * `workbook bench` runs them in one process and writes every figure to `bench-results/`.
 */

/** One measured figure, with the target it is judged against and, where a peer ran beside it, the ratio. */
export interface BenchFigure {
  /** What was measured, e.g. "workqueue add/get/done cycles". */
  name: string;
  value: number;
  unit: string;
  /** Target from the issue, e.g. ">= 1000000" or "<= 150". */
  target?: string;
  /** Whether `value` meets `target` (undefined when there is no target). */
  met?: boolean;
  /** Peer figure measured in the same run, and ours/peer (or peer/ours for times: always "higher = better for us"). */
  peer?: { name: string; value: number; ratio: number };
  notes?: string;
}

/** A named group of figures. `run` must stop everything it starts before resolving. */
export interface Benchmark {
  name: string;
  run(): Promise<BenchFigure[]>;
}

/** Checks `value` against a target string of the form ">= N" or "<= N". */
export function meets(value: number, target: string): boolean {
  const m = /^(>=|<=)\s*([\d.]+)$/.exec(target.trim());
  if (!m) throw new Error(`bad target "${target}"`);
  const limit = Number(m[2]);
  return m[1] === ">=" ? value >= limit : value <= limit;
}
