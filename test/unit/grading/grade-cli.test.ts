import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listLabs, parseGradeArgs } from "../../../src/cli/grade.js";
import { projectRoot } from "../../../src/cli/workbook-paths.js";

const root = projectRoot();
const fixtures = join(root, "test", "fixtures", "grading");

/** Runs the built `workbook grade` (the TypeScript loader it registers only exists in dist). */
function grade(...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, "dist", "cli", "main.js"), "grade", ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, output: run.stdout + run.stderr };
}

describe("workbook grade", () => {
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

  it("says there is nothing to grade when there are no labs, and exits 0", () => {
    const empty = mkdtempSync(join(tmpdir(), "workbook-labs-"));
    try {
      const { code, output } = grade("--labs-dir", empty);
      expect(output).toContain("no labs in");
      expect(code).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("grades the real solutions/ with every requirement met (nothing to grade until the labs arrive)", () => {
    const { code, output } = grade("--solutions");
    expect(output).toMatch(/no labs in .*solutions yet|requirements met in/);
    expect(output).not.toContain("[ ]");
    expect(code).toBe(0);
  });

  it("finds NN-topic folders only and parses its options", () => {
    expect(listLabs(join(fixtures, "labs"))).toEqual(["01-counter", "02-broken", "99-no-grader"]);
    expect(listLabs(join(fixtures, "missing"))).toEqual([]);
    expect(parseGradeArgs(["--solutions", "01"])).toMatchObject({
      labsDir: join(root, "solutions"),
      filter: "01",
    });
    expect(parseGradeArgs([]).labsDir).toBe(join(root, "labs"));
    expect(() => parseGradeArgs(["--fast"])).toThrow(/unknown option --fast/);
  });
});
