import { describe, expect, it } from "vitest";
import type { TestModule } from "vitest/node";
import { countRun, summaryLine } from "./summary-reporter.js";

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
});
