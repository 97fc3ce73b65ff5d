/**
 * The benchmark contract. Each family is one module under `src/tools/bench/` exporting a {@link Benchmark};
 * `workbook bench` runs each in a fresh process (src/tools/bench/family-process.ts), side by side with its peers, and writes every figure, chart and
 * missing peer to `bench-results/latest.{json,md}`. Absolute times on a shared machine are noisy, so every
 * figure that matters carries a ratio to a peer measured in the same run.
 */
import type { PeerLookup } from "./peers/client-go.js";

/** A peer's figure beside ours: its value and the ratio, always "higher = better for us". */
export interface PeerFigure {
  name: string;
  value: number;
  /** ours/peer for rates, peer/ours for times and sizes: above 1 means we beat the peer. */
  ratio: number;
}

/** One measured figure, with the target it is judged against and the peers measured beside it. */
export interface BenchFigure {
  /** What was measured, e.g. "workqueue add/get/done cycles". */
  name: string;
  value: number;
  unit: string;
  /** Target from the issue, e.g. ">= 1000000" or "<= 150". */
  target?: string;
  /** Whether `value` meets `target` (undefined when there is no target). */
  met?: boolean;
  /** Peer figures measured in the same run. */
  peers?: PeerFigure[];
  notes?: string;
}

/** What a family produced: figures, one or more mermaid xycharts, and the peers that could not run (and why). */
export interface BenchResult {
  figures: BenchFigure[];
  /** Mermaid `xychart-beta` sources (parsed by the test suite like every diagram). */
  charts: string[];
  /** One sentence per peer that could not run, e.g. "envtest: no kube-apiserver binaries (...)". */
  missing: string[];
}

/** What every family gets from the runner. */
export interface BenchContext {
  /** The tiny version run by `npm test`: every code path, sizes small enough to take seconds. */
  tiny: boolean;
  /** Progress lines for the console. */
  log(line: string): void;
  /** The client-go peer, built on first use (seconds when the shared Go build cache is warm). */
  clientGo(): Promise<PeerLookup>;
}

/** A named family. `run` must stop everything it starts before resolving. */
export interface Benchmark {
  name: string;
  /** One line: what the family answers. */
  title: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

/** Checks `value` against a target string of the form ">= N" or "<= N". */
export function meets(value: number, target: string): boolean {
  const m = /^(>=|<=)\s*([\d.]+)$/.exec(target.trim());
  if (!m) throw new Error(`bad target "${target}"`);
  const limit = Number(m[2]);
  return m[1] === ">=" ? value >= limit : value <= limit;
}

/** A figure with its target judged. */
export function judged(figure: Omit<BenchFigure, "met"> & { target: string }): BenchFigure {
  return { ...figure, met: Number.isFinite(figure.value) && meets(figure.value, figure.target) };
}

/** A peer figure for a rate (higher is better): ratio ours/peer. */
export function peerRate(name: string, ours: number, peer: number): PeerFigure {
  return { name, value: peer, ratio: ours / peer };
}

/** A peer figure for a time or a size (lower is better): ratio peer/ours. */
export function peerCost(name: string, ours: number, peer: number): PeerFigure {
  return { name, value: peer, ratio: peer / ours };
}
