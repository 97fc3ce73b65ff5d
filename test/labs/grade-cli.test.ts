/**
 * `workbook grade` on the fixture labs (full tier): the report's why and hint, the supervisor's hazards (an
 * endless loop, a hang, starved timers, a throw, process.exit), --json, and gradeInNotebook. Each grading spawns
 * worker processes that load TypeScript. The command line's options are unit-tested in
 * test/unit/grading/grade-cli.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";
import {
  type GradeRunReport,
  gradeInNotebook,
  renderGradeReport,
  runGrade,
} from "../../src/workbook/grading/index.js";

const root = projectRoot();
const fixtures = join(root, "test", "fixtures", "grading");

/** Runs the built `workbook grade` (the TypeScript loader it registers only exists in dist). */
function grade(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, "dist", "tools", "cli", "main.js"), "grade", ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 240_000,
  });
  return { code: run.status, output: run.stdout + run.stderr };
}

// Every grade spawns worker processes that load TypeScript; on a busy 2-core machine that takes a while.
describe("workbook grade on the fixture labs", { timeout: 240_000 }, () => {
  it("grades the fixture lab skeletons: failures get why and hint, broken labs are reported", () => {
    const { code, output } = grade(
      "--labs-dir",
      join(fixtures, "labs"),
      "--graders-dir",
      join(fixtures, "graders"),
    );
    expect(code).toBe(1);
    expect(output).toContain(
      "01-counter: a counter that settles\n  [x] a new counter starts at zero\n  [ ] bump()",
    );
    expect(output).toContain("hint: bump() must schedule the increment");
    expect(output).toMatch(/why: {2}value 1 did not happen within 300 ms/);
    expect(output).toContain(
      "02-broken\n  [ ] the lab's code loads\n        why:  fixture: this lab does not load",
    );
    expect(output).toContain("99-no-grader\n  [ ] the lab has a grader");
    expect(output).toContain("grade: 2/5 requirements met in 3 labs (0 complete)");
  });

  it("passes the fixture solutions", () => {
    const { code, output } = grade(
      "--labs-dir",
      join(fixtures, "solutions"),
      "--graders-dir",
      join(fixtures, "graders"),
    );
    expect(output).toContain("grade: 3/3 requirements met in 1 lab (1 complete)");
    expect(code).toBe(0);
  });

  it("an endless loop, a hang, starved timers, a throw and process.exit each fail one check; the rest still run", () => {
    const dir = mkdtempSync(join(tmpdir(), "workbook-grade-"));
    try {
      const file = join(dir, "report.json");
      const started = Date.now();
      const { code, output } = grade(
        "--labs-dir",
        join(fixtures, "hazards", "labs"),
        "--graders-dir",
        join(fixtures, "hazards", "graders"),
        "--json",
        file,
      );
      expect(code).toBe(1);
      expect(Date.now() - started).toBeLessThan(200_000);
      const report = JSON.parse(readFileSync(file, "utf8")) as GradeRunReport;
      expect(report).toMatchObject({ format: "workbook-grade/v1", passed: 3, failed: 5, complete: 0 });
      const results = report.labs[0]!.results.map((r) => [r.requirement, r.passed, r.message]);
      expect(results).toEqual([
        ["runs first", true, undefined],
        ["a synchronous endless loop", false, expect.stringMatching(/within 300 ms; the grader stopped it/)],
        ["runs after the endless loop", true, undefined],
        ["a promise that never settles", false, "did not finish within 300 ms"],
        [
          "microtasks that starve the timers",
          false,
          expect.stringMatching(/within 300 ms; the grader stopped it/),
        ],
        ["an exception", false, "fixture: the learner's code threw"],
        ["process.exit", false, "the lab's process exited with code 3 during this check"],
        ["runs last", true, undefined],
      ]);
      expect(report.labs[0]!.results[1]!.hint).toBe("look for a loop without an exit");
      expect(output).toContain("3/8 requirements met");
      expect(output).toContain(`report written to ${file}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--json alone writes only the JSON report to stdout", () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, "dist", "tools", "cli", "main.js"),
        "grade",
        "--json",
        "--labs-dir",
        join(fixtures, "solutions"),
        "--graders-dir",
        join(fixtures, "graders"),
      ],
      { cwd: root, encoding: "utf8", timeout: 120_000 },
    );
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as GradeRunReport;
    expect(report.labs.map((l) => [l.lab, l.passed, l.failed])).toEqual([
      ["01-counter: a counter that settles", 3, 0],
    ]);
    expect(report).toMatchObject({ passed: 3, failed: 0, complete: 1, cluster: expect.any(String) });
    expect(run.stderr).toContain("grade: 3/3 requirements met");
  });
});

describe("gradeInNotebook", { timeout: 240_000 }, () => {
  it("runs the grader in a child process and renders each requirement with why and hint", async () => {
    const out: string[] = [];
    const dirs = { labsDir: join(fixtures, "labs"), gradersDir: join(fixtures, "graders") };
    await gradeInNotebook("01-counter", { ...dirs, display: null, write: (t) => out.push(t) });
    const report = await runGrade("01-counter", dirs);
    expect(report).toMatchObject({ passed: 2, failed: 1 });
    await expect(runGrade("01", { labsDir: join(fixtures, "labs"), gradersDir: "--bogus" })).rejects.toThrow(
      /workbook grade 01 failed/,
    );
    const text = out.join("");
    expect(text).toContain("### 01-counter: a counter that settles: 2/3 requirements met");
    expect(text).toContain("- ✅ a new counter starts at zero");
    expect(text).toContain(
      "- ❌ **bump() eventually raises the value by one**\n  - why: value 1 did not happen",
    );
    expect(text).toContain("  - hint: bump() must schedule the increment");
    expect(renderGradeReport({ ...report, labs: [] })).toMatch(/^No lab matched/);
  });
});
