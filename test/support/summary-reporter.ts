import type { Reporter, TestModule } from "vitest/node";

/** Test counts of a run: what the closing line reports. */
export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts tests by final state. A test file that failed without any failing test (it did not import, or a
 * hook threw) counts as one failure, and so does each unhandled error, so a broken run can never read as clean.
 */
export function countRun(modules: ReadonlyArray<TestModule>, unhandledErrors: number): RunCounts {
  const counts: RunCounts = { passed: 0, failed: unhandledErrors, skipped: 0 };
  for (const mod of modules) {
    let failedHere = 0;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") counts.passed++;
      else if (state === "failed") failedHere++;
      else counts.skipped++;
    }
    if (failedHere === 0 && mod.state() === "failed") failedHere = 1;
    counts.failed += failedHere;
  }
  return counts;
}

/** The closing line CI reads: `N passed, N failed, N skipped`, alone on its line. */
export function summaryLine(counts: RunCounts): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/** One test file's time: its tests and hooks (`duration`) plus importing it (`collect`), in ms. */
export interface FileTime {
  file: string;
  project: string;
  duration: number;
  collect: number;
}

/** A fast-tier file slower than this is named in the report as one that belongs in the full tier. */
export const FAST_FILE_BUDGET_MS = 60_000;

/** The `n` slowest files of a run, slowest first (tests and hooks plus import). */
export function slowestFiles(modules: ReadonlyArray<TestModule>, n: number): FileTime[] {
  return modules
    .map((mod) => {
      const d = mod.diagnostic();
      return {
        file: mod.relativeModuleId,
        project: mod.project.name,
        duration: d.duration,
        collect: d.collectDuration,
      };
    })
    .sort((a, b) => b.duration + b.collect - (a.duration + a.collect))
    .slice(0, n);
}

/**
 * The slowest-files report: one line per file, and for each file of the fast project over
 * {@link FAST_FILE_BUDGET_MS} a line saying it belongs in the full tier (test/tiers.ts). A report, not a verdict:
 * a loaded machine makes every file slower, and a test's verdict never depends on the machine's speed.
 */
export function slowestReport(files: FileTime[]): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = files.map(
    (f) =>
      `  ${seconds(f.duration + f.collect).padStart(8)}  ${f.file} [${f.project}] (import ${seconds(f.collect)})`,
  );
  for (const f of files.filter((f) => f.project === "fast" && f.duration + f.collect > FAST_FILE_BUDGET_MS)) {
    lines.push(
      `  slow file in the fast tier: ${f.file} took ${seconds(f.duration + f.collect)}; ` +
        "move it to the full tier (name it *.full.test.ts or list it in test/tiers.ts)",
    );
  }
  return `slowest files:\n${lines.join("\n")}`;
}

/** Per project (tier): files and the sum of their times, e.g. `fast: 150 files, 812.4 s of file time`. */
export function tierTotals(files: FileTime[]): string {
  const by = new Map<string, { files: number; ms: number }>();
  for (const f of files) {
    const t = by.get(f.project) ?? { files: 0, ms: 0 };
    t.files++;
    t.ms += f.duration + f.collect;
    by.set(f.project, t);
  }
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]) => `${name}: ${t.files} files, ${(t.ms / 1000).toFixed(1)} s of file time`)
    .join("; ");
}

/**
 * Vitest reporter used next to the "default" reporter: the slowest files of the run ({@link slowestReport}), then
 * {@link summaryLine} as the last line.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`\n${slowestReport(slowestFiles(modules, 8))}\n`);
    process.stdout.write(`tiers: ${tierTotals(slowestFiles(modules, modules.length))}\n`);
    process.stdout.write(`\n${summaryLine(countRun(modules, unhandledErrors.length))}\n`);
  }
}
