/**
 * Helpers shared by the suites that grade lab folders through the real `workbook grade --json` (the supervised
 * worker, the TypeScript loader and the report included): both-ways.test.ts and wrong-answers.test.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { workbookPaths } from "../../../src/tools/cli/workbook-paths.js";
import type { GradeRunReport } from "../../../src/workbook/grading/index.js";

const paths = workbookPaths();

/** Every file under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Grades one lab folder of `labsDir` with `workbook grade --json` and returns the parsed report; `go` grades
 * its Go track (`--go`: the lab's go/ folder).
 */
export function grade(
  lab: string,
  labsDir: string,
  gradersDir = paths.graders,
  options: { go?: boolean } = {},
): GradeRunReport {
  const dir = mkdtempSync(join(tmpdir(), "workbook-grade-cli-"));
  try {
    const file = join(dir, "report.json");
    const cli = join(paths.root, "dist", "tools", "cli", "main.js");
    const args = [cli, "grade", "--json", file, "--labs-dir", labsDir, "--graders-dir", gradersDir, lab];
    if (options.go) args.push("--go");
    const run = spawnSync(process.execPath, args, { cwd: paths.root, encoding: "utf8", timeout: 600_000 });
    if (!existsSync(file))
      throw new Error(`workbook grade wrote no report (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    return JSON.parse(readFileSync(file, "utf8")) as GradeRunReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The requirements of a report that passed, and those that failed, with why. */
export function split(report: GradeRunReport): { passing: string[]; failing: string[]; total: number } {
  // A requirement declared not applicable on this track (shown as [-]) is neither met nor failed: it is left out.
  const results = report.labs.flatMap((l) => l.results).filter((r) => r.notApplicable === undefined);
  return {
    passing: results.filter((r) => r.passed).map((r) => r.requirement),
    failing: results.filter((r) => !r.passed).map((r) => `${r.requirement}: ${r.message}`),
    total: results.length,
  };
}
