import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import {
  defineLab,
  formatReport,
  formatSummary,
  type GradeReport,
  runChecks,
} from "../../../src/workbook/grading/index.js";

describe("runChecks", () => {
  it("runs every check in order, keeps going after failures, and records hints only for failures", async () => {
    const order: string[] = [];
    const report = await runChecks("01-demo", [
      { requirement: "first", hint: "unused", run: () => void order.push("first") },
      {
        requirement: "second",
        hint: "look at the finalizer",
        run: async () => {
          order.push("second");
          throw new Error("finalizer still present");
        },
      },
      { requirement: "third", run: () => void order.push("third") },
    ]);
    expect(order).toEqual(["first", "second", "third"]);
    expect(report.passed).toBe(2);
    expect(report.failed).toBe(1);
    expect(report.results.map((r) => [r.requirement, r.passed, r.message, r.hint])).toEqual([
      ["first", true, undefined, undefined],
      ["second", false, "finalizer still present", "look at the finalizer"],
      ["third", true, undefined, undefined],
    ]);
  });

  it("fails a check that hangs past its timeout and moves on", async () => {
    const clock = new FakeClock(0);
    const done = runChecks(
      "02-hang",
      [
        { requirement: "hangs", timeout: 500, run: () => new Promise<void>(() => {}) },
        { requirement: "after", run: () => {} },
      ],
      clock,
    );
    await clock.advance(500);
    const report = await done;
    expect(report.results.map((r) => [r.passed, r.message])).toEqual([
      [false, "did not finish within 500 ms"],
      [true, undefined],
    ]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("does not run a check whose needed requirement failed: it fails at once naming that requirement, without a hint", async () => {
    const ran: string[] = [];
    const report = await runChecks("05-needs", [
      {
        requirement: "converges",
        run: () => {
          ran.push("converges");
          throw new Error("0 children");
        },
      },
      { requirement: "ok", run: () => void ran.push("ok") },
      { requirement: "scales", hint: "h", needs: ["converges"], run: () => void ran.push("scales") },
      { requirement: "builds on a skip", needs: ["scales"], run: () => void ran.push("chained") },
      { requirement: "builds on a pass", needs: ["ok"], run: () => void ran.push("on ok") },
    ]);
    expect(ran).toEqual(["converges", "ok", "on ok"]);
    expect(report.results.map((r) => [r.requirement, r.passed, r.skipped ?? false, r.hint])).toEqual([
      ["converges", false, false, undefined],
      ["ok", true, false, undefined],
      ["scales", false, true, undefined],
      ["builds on a skip", false, true, undefined],
      ["builds on a pass", true, false, undefined],
    ]);
    expect(report.results[2]?.message).toBe(
      'not checked: it builds on "converges", which is not met yet (fix that first)',
    );
    expect(report.failed).toBe(3);
  });

  it("does not run a check that does not apply to the track: it counts neither as met nor as not met, and the report says why", async () => {
    let ran = false;
    const report = await runChecks("09-demo/go", [
      { requirement: "one leader", run: () => {} },
      {
        requirement: "fake-clock trials",
        hint: "unused",
        notApplicable: "no fake clock in a process",
        run: () => {
          ran = true;
        },
      },
    ]);
    expect(ran).toBe(false);
    expect([report.passed, report.failed]).toEqual([1, 0]);
    expect(formatReport(report)).toBe(
      [
        "09-demo/go",
        "  [x] one leader",
        "  [-] fake-clock trials",
        "        not checked on this track: no fake clock in a process",
        "  1/1 requirements met",
        "",
      ].join("\n"),
    );
  });

  it("counts the checks that share a tally and prints the count under the score", async () => {
    const fail = () => {
      throw new Error("every test passed");
    };
    const report = await runChecks("13-demo", [
      { requirement: "the suite passes", run: () => {} },
      { requirement: "catches a", tally: "mutants caught", run: () => {} },
      { requirement: "catches b", tally: "mutants caught", run: fail },
      { requirement: "catches c", tally: "mutants caught", run: () => {} },
    ]);
    expect(report.results.map((r) => r.tally)).toEqual([
      undefined,
      "mutants caught",
      "mutants caught",
      "mutants caught",
    ]);
    const text = formatReport(report);
    expect(text).toContain("  3/4 requirements met\n  2/3 mutants caught\n");
  });

  it("defineLab keeps the grader as written", () => {
    const grader = { title: "t", checks: () => [] };
    expect(defineLab(grader)).toBe(grader);
  });
});

describe("report printer", () => {
  const report: GradeReport = {
    lab: "08-garbage-collection",
    passed: 1,
    failed: 1,
    results: [
      { requirement: "children carry an ownerReference", passed: true, durationMs: 3 },
      {
        requirement: "deleting the parent deletes its children",
        passed: false,
        message: "2 children left\nafter 5 s",
        hint: "set blockOwnerDeletion",
        durationMs: 5000,
      },
    ],
  };

  it("prints one bullet per requirement with why and hint under failures", () => {
    expect(formatReport(report)).toBe(
      [
        "08-garbage-collection",
        "  [x] children carry an ownerReference",
        "  [ ] deleting the parent deletes its children",
        "        why:  2 children left",
        "              after 5 s",
        "        hint: set blockOwnerDeletion",
        "  1/2 requirements met",
        "",
      ].join("\n"),
    );
  });

  it("summarises several labs on one line", () => {
    const complete: GradeReport = { ...report, lab: "04", passed: 2, failed: 0 };
    expect(formatSummary([report, complete])).toBe("grade: 3/4 requirements met in 2 labs (1 complete)\n");
  });
});
