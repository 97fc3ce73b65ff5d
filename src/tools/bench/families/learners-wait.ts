/**
 * The learner's wait: what a learner waits for between pressing Run and seeing output, measured under the real
 * tslab kernel exactly as `npm run notebooks` runs the path (src/tools/cli/notebook_runner.py with nbclient,
 * embedded cluster). Per notebook: the kernel's start (until it answers kernel_info; tslab builds its TypeScript
 * compiler before it answers) and each code cell's wall time, split into tslab's compile of the cell (timed
 * inside the kernel by src/tools/bench/tslab-timings.ts) and the run of the emitted JavaScript (wall minus
 * compile: the same code as plain compiled TypeScript would spend, plus the kernel's messaging, a few ms).
 *
 * Targets (issue 27): kernel ready plus the first cell <= 3 s in every notebook; no cell over 10 s except those
 * tagged `long-measurement` (a declared long measurement); the whole path headless <= 3 minutes. The tiny
 * version runs one notebook.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { xyChart } from "../../../workbook/viz/xychart.js";
import { exitCode, notebookEnv, notebookProblems } from "../../cli/notebook-env.js";
import { listNotebooks } from "../../cli/notebooks.js";
import { workbookPaths } from "../../cli/workbook-paths.js";
import { median, percentile, sorted } from "../measure.js";
import type { TslabTiming } from "../tslab-timings.js";
import { type BenchFigure, type Benchmark, type BenchResult, judged } from "../types.js";

/** The tag that declares a cell a long measurement, exempt from the 10 s per-cell target. */
export const LONG_MEASUREMENT_TAG = "long-measurement";

/** What the notebook runner writes with `--timings`, per notebook. */
export interface RunnerTimings {
  notebook: string;
  kernel_start?: number;
  seconds: number;
  failed: boolean;
  cells?: { cell: number; first_line: string; seconds: number; tags: string[] }[];
}

/** One executed cell, with its wall time split. */
export interface CellWait {
  notebook: string;
  cell: number;
  firstLine: string;
  wallMs: number;
  compileMs: number;
  runMs: number;
  long: boolean;
}

/** One notebook's wait. */
export interface NotebookWait {
  notebook: string;
  kernelStartMs: number;
  converterMs: number;
  /** Kernel start plus the first code cell: what a learner waits for after opening the notebook and pressing Run. */
  firstOutputMs: number;
  totalMs: number;
  cells: CellWait[];
}

/**
 * Joins the runner's timings with the kernel's compile records. The records of one kernel begin with its
 * `converter` line and have one `convert` line per executed cell, in the order the runner executed them (tslab
 * converts every cell it runs once); a count that differs is an error, not a guess.
 */
export function joinWaits(runs: readonly RunnerTimings[], records: readonly TslabTiming[]): NotebookWait[] {
  const kernels: { converterMs: number; converts: number[] }[] = [];
  for (const r of records) {
    if (r.kind === "converter") kernels.push({ converterMs: r.ms, converts: [] });
    else kernels.at(-1)?.converts.push(r.ms);
  }
  if (kernels.length !== runs.length) {
    throw new Error(
      `${runs.length} notebooks ran but ${kernels.length} tslab kernels recorded their compiles`,
    );
  }
  return runs.map((run, i) => {
    const kernel = kernels[i] as (typeof kernels)[number];
    const cells = run.cells ?? [];
    if (kernel.converts.length !== cells.length) {
      throw new Error(
        `${run.notebook}: ${cells.length} cells ran but the kernel compiled ${kernel.converts.length}`,
      );
    }
    const waits = cells.map((c, j): CellWait => {
      const wallMs = c.seconds * 1000;
      const compileMs = Math.min(wallMs, kernel.converts[j] as number);
      return {
        notebook: run.notebook,
        cell: c.cell,
        firstLine: c.first_line,
        wallMs,
        compileMs,
        runMs: wallMs - compileMs,
        long: c.tags.includes(LONG_MEASUREMENT_TAG),
      };
    });
    const kernelStartMs = (run.kernel_start ?? Number.NaN) * 1000;
    return {
      notebook: run.notebook,
      kernelStartMs,
      converterMs: kernel.converterMs,
      firstOutputMs: kernelStartMs + (waits[0]?.wallMs ?? Number.NaN),
      totalMs: run.seconds * 1000,
      cells: waits,
    };
  });
}

const hookFile = fileURLToPath(new URL("../tslab-timings.js", import.meta.url));

/** Runs `notebooks` headless under tslab with the compile hook; resolves with the runner's and kernel's timings. */
async function runNotebooks(notebooks: string[], log: (line: string) => void): Promise<NotebookWait[]> {
  const paths = workbookPaths();
  const dir = mkdtempSync(join(tmpdir(), "learners-wait-"));
  const runnerOut = join(dir, "runner.json");
  const kernelOut = join(dir, "kernel.jsonl");
  try {
    const env = {
      ...notebookEnv(paths),
      WORKBOOK_CLUSTER: "embedded",
      WORKBOOK_TSLAB_TIMINGS: kernelOut,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${hookFile}`].filter(Boolean).join(" "),
    };
    const args = [paths.notebookRunner, "--kernel", "tslab", "--timings", runnerOut, ...notebooks];
    const child = spawn(paths.venvPython, args, { cwd: paths.root, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const code = await exitCode(child, "learners-wait");
    if (code !== 0)
      throw new Error(`the notebooks did not run clean:\n${output.split("\n").slice(-25).join("\n")}`);
    const runs = JSON.parse(readFileSync(runnerOut, "utf8")) as RunnerTimings[];
    const records = readFileSync(kernelOut, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as TslabTiming);
    log(
      `learners-wait: ${runs.length} notebooks, ${runs.reduce((n, r) => n + (r.cells?.length ?? 0), 0)} cells`,
    );
    return joinWaits(runs, records);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => `${Math.round(v).toLocaleString("en-US")} ms`;
const cellName = (c: CellWait) =>
  `${c.notebook.replace(/\.ipynb$/, "")} cell ${c.cell} (\`${c.firstLine.slice(0, 60)}\`)`;

/** The figures of {@link NotebookWait}s (exported for the unit test). */
export function waitFigures(waits: readonly NotebookWait[], wholePath: boolean): BenchFigure[] {
  const cells = waits.flatMap((w) => w.cells);
  const compiles = sorted(cells.map((c) => c.compileMs));
  const runs = sorted(cells.map((c) => c.runMs));
  const worstFirst = [...waits].sort((a, b) => b.firstOutputMs - a.firstOutputMs)[0];
  const slowest = [...cells].sort((a, b) => b.wallMs - a.wallMs);
  const overTen = cells.filter((c) => c.wallMs > 10_000 && !c.long);
  const compileTotal = compiles.reduce((a, b) => a + b, 0);
  const wallTotal = cells.reduce((a, c) => a + c.wallMs, 0);
  const pathMs = waits.reduce((a, w) => a + w.totalMs, 0);
  return [
    judged({
      name: "kernel ready plus the first cell, slowest notebook",
      value: worstFirst?.firstOutputMs ?? Number.NaN,
      unit: "ms",
      target: "<= 3000",
      notes: `${worstFirst?.notebook ?? "-"}; median over notebooks ${ms(median(waits.map((w) => w.firstOutputMs)))}`,
    }),
    {
      name: "kernel start (until it answers), median",
      value: median(waits.map((w) => w.kernelStartMs)),
      unit: "ms",
      notes: `of which tslab builds its compiler: median ${ms(median(waits.map((w) => w.converterMs)))}`,
    },
    {
      name: "per-cell compile by tslab, median",
      value: percentile(compiles, 50),
      unit: "ms",
      notes: `p95 ${ms(percentile(compiles, 95))}; the first cell of a notebook (its imports) median ${ms(median(waits.map((w) => w.cells[0]?.compileMs ?? Number.NaN)))}`,
    },
    {
      name: "per-cell run (the emitted JavaScript), median",
      value: percentile(runs, 50),
      unit: "ms",
      notes: `p95 ${ms(percentile(runs, 95))}`,
    },
    {
      name: "share of cell time spent compiling",
      value: wallTotal > 0 ? (100 * compileTotal) / wallTotal : Number.NaN,
      unit: "%",
      notes: `${ms(compileTotal)} compiling of ${ms(wallTotal)} in ${cells.length} cells`,
    },
    judged({
      name: "cells over 10 s that are not declared long measurements",
      value: overTen.length,
      unit: "cells",
      target: "<= 0",
      notes: `slowest: ${slowest
        .slice(0, 5)
        .map((c) => `${cellName(c)} ${ms(c.wallMs)}${c.long ? " (declared long)" : ""}`)
        .join("; ")}`,
    }),
    wholePath
      ? judged({
          name: "the whole path headless (every notebook, embedded)",
          value: pathMs / 1000,
          unit: "s",
          target: "<= 180",
          notes: `${waits.length} notebooks`,
        })
      : { name: "one notebook headless (tiny)", value: pathMs / 1000, unit: "s" },
  ];
}

/** Compile and run seconds per notebook, side by side. */
function waitChart(waits: readonly NotebookWait[]): string {
  const sum = (w: NotebookWait, pick: (c: CellWait) => number) =>
    w.cells.reduce((a, c) => a + pick(c), 0) / 1000;
  return xyChart({
    title: "seconds per notebook under tslab; bars: kernel start, compile, run",
    x: waits.map((w) => w.notebook.slice(0, 2)),
    xLabel: "notebook",
    yLabel: "s",
    series: [
      { kind: "bar", values: waits.map((w) => w.kernelStartMs / 1000) },
      { kind: "bar", values: waits.map((w) => sum(w, (c) => c.compileMs)) },
      { kind: "bar", values: waits.map((w) => sum(w, (c) => c.runMs)) },
    ],
  });
}

async function run(ctx: Parameters<Benchmark["run"]>[0]): Promise<BenchResult> {
  const paths = workbookPaths();
  const problems = notebookProblems(paths);
  if (problems.length > 0) return { figures: [], charts: [], missing: [`notebooks: ${problems.join(" ")}`] };
  if (!existsSync(hookFile)) throw new Error(`${hookFile} is missing: run npm run build`);
  const all = listNotebooks(paths.notebooks);
  const notebooks = ctx.tiny ? all.filter((n) => n.includes("04-workqueue")) : all;
  const waits = await runNotebooks(notebooks, ctx.log);
  return { figures: waitFigures(waits, !ctx.tiny), charts: [waitChart(waits)], missing: [] };
}

/** The family `workbook bench` runs. */
export const benchmark: Benchmark = {
  name: "learners-wait",
  title:
    "The learner's wait: kernel start, tslab's compile and the run of each cell, the whole path headless",
  run,
};
