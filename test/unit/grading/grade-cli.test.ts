import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graderFile, listLabs, parseGradeArgs } from "../../../src/tools/cli/grade.js";
import { projectRoot } from "../../../src/tools/cli/workbook-paths.js";

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

// The command line's own parts: options, usage errors, an empty labs folder. Gradings (fixture labs, the
// supervisor's hazards, the notebook renderer) run in the full tier: test/labs/grade-cli.test.ts; every real lab
// is graded both ways in test/labs/both-ways.test.ts.
describe("workbook grade", { timeout: 60_000 }, () => {
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

  it("finds NN-topic folders only and parses its options", () => {
    expect(listLabs(join(fixtures, "labs"))).toEqual(["01-counter", "02-broken", "99-no-grader"]);
    expect(listLabs(join(fixtures, "missing"))).toEqual([]);
    expect(parseGradeArgs(["--solutions", "01"])).toMatchObject({
      labsDir: join(root, "solutions"),
      filter: "01",
    });
    expect(parseGradeArgs([]).labsDir).toBe(join(root, "labs"));
    expect(() => parseGradeArgs(["--fast"])).toThrow(/Unknown option '--fast'/);
    expect(parseGradeArgs(["--json"]).json).toBe("-");
    expect(parseGradeArgs(["--json", "out/report.json", "02"])).toMatchObject({
      json: join(root, "out", "report.json"),
      filter: "02",
    });
    expect(parseGradeArgs(["--json", "02"])).toMatchObject({ json: "-", filter: "02" });
  });

  it("grades with the built graders by default, and finds a grader as <lab>.js, else <lab>.ts", () => {
    expect(parseGradeArgs([]).gradersDir).toBe(join(root, "dist", "workbook", "graders"));
    const built = mkdtempSync(join(tmpdir(), "workbook-graders-"));
    try {
      writeFileSync(join(built, "05-x.js"), "");
      writeFileSync(join(built, "05-x.ts"), "");
      expect(graderFile(built, "05-x")).toBe(join(built, "05-x.js"));
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
    expect(graderFile(join(fixtures, "graders"), "01-counter")).toBe(
      join(fixtures, "graders", "01-counter.ts"),
    );
    expect(graderFile(join(fixtures, "graders"), "99-no-grader")).toBeUndefined();
  });

  it("exits 2 with a hint on a bad option", () => {
    const { code, output } = grade("--fast");
    expect(code).toBe(2);
    expect(output).toContain("run `workbook grade --help` for usage");
  });
});
