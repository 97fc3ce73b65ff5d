import { describe, expect, it } from "vitest";
import type { TestModule } from "vitest/node";
import {
  countRun,
  FAST_FILE_BUDGET_MS,
  slowestFiles,
  slowestReport,
  summaryLine,
  tierTotals,
} from "./summary-reporter.js";

/** A stand-in for vitest's TestModule with just what the reporter reads. */
function fakeModule(states: string[], moduleState = "passed"): TestModule {
  const tests = states.map((state) => ({ result: () => ({ state }) }));
  return { state: () => moduleState, children: { allTests: () => tests } } as unknown as TestModule;
}

describe("summary reporter", () => {
  it("counts passed, failed and skipped tests across files", () => {
    const counts = countRun(
      [fakeModule(["passed", "passed", "skipped"]), fakeModule(["failed", "passed"], "failed")],
      0,
    );
    expect(summaryLine(counts)).toBe("3 passed, 1 failed, 1 skipped");
  });

  it("counts a file that failed without a failing test, and unhandled errors, as failures", () => {
    expect(countRun([fakeModule([], "failed")], 2)).toEqual({ passed: 0, failed: 3, skipped: 0 });
  });

  it("prints a line CI can read: 'N passed, N failed' alone on a line", () => {
    expect(summaryLine({ passed: 12, failed: 0, skipped: 2 })).toMatch(
      /^\d+ passed, \d+ failed(, \d+ skipped)?$/,
    );
  });

  it("lists the slowest files first and names a slow fast-tier file, never a slow full-tier one", () => {
    const timed = (file: string, project: string, duration: number, collect: number) =>
      ({
        relativeModuleId: file,
        project: { name: project },
        diagnostic: () => ({ duration, collectDuration: collect }),
      }) as unknown as TestModule;
    const files = slowestFiles(
      [
        timed("test/a.test.ts", "fast", 1_000, 500),
        timed("test/big.test.ts", "fast", FAST_FILE_BUDGET_MS, 2_000),
        timed("test/labs/x.test.ts", "full", 300_000, 1_000),
      ],
      2,
    );
    expect(files.map((f) => f.file)).toEqual(["test/labs/x.test.ts", "test/big.test.ts"]);
    const report = slowestReport(files);
    expect(report).toContain("301.0 s  test/labs/x.test.ts [full] (import 1.0 s)");
    expect(report).toContain("slow file in the fast tier: test/big.test.ts took 62.0 s");
    expect(report).not.toContain("slow file in the fast tier: test/labs/x.test.ts");
    expect(tierTotals(files)).toBe("fast: 1 files, 62.0 s of file time; full: 1 files, 301.0 s of file time");
  });
});
