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

/** Vitest reporter that ends the run with {@link summaryLine}; used next to the "default" reporter. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`\n${summaryLine(countRun(modules, unhandledErrors.length))}\n`);
  }
}
