/**
 * `workbook grade [--solutions] [lab-filter]` (npm run grade): grades every lab folder `NN-topic/` of labs/
 * (or solutions/ with --solutions) with its grader `test/labs/NN-topic.grade.ts`, printing one bullet per
 * requirement with a hint under each failure. Exit 0 when every requirement is met (or there are no labs yet),
 * 1 otherwise. `--labs-dir` and `--graders-dir` point elsewhere (the tests use a fixture lab).
 */
import { existsSync, readdirSync } from "node:fs";
import { register } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Check, type GradeReport, type LabGrader, runChecks } from "../grading/check.js";
import { formatReport, formatSummary } from "../grading/report.js";
import { workbookPaths } from "./workbook-paths.js";

/** Parsed arguments of `workbook grade`. */
export interface GradeArgs {
  labsDir: string;
  gradersDir: string;
  filter?: string;
}

/** Parses the command line; unknown flags are an error. */
export function parseGradeArgs(args: readonly string[]): GradeArgs {
  const paths = workbookPaths();
  let labsDir: string | undefined;
  let gradersDir = paths.graders;
  let solutions = false;
  let filter: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--solutions") solutions = true;
    else if (arg === "--labs-dir") labsDir = resolve(args[++i] ?? "");
    else if (arg === "--graders-dir") gradersDir = resolve(args[++i] ?? "");
    else if (arg.startsWith("--")) throw new Error(`workbook grade: unknown option ${arg}`);
    else filter = arg;
  }
  labsDir ??= solutions ? paths.solutions : paths.labs;
  return { labsDir, gradersDir, filter };
}

/** Lab folders (`NN-topic`) directly under `dir`, in order. */
export function listLabs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d{2}-/.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** A report with a single failed requirement, for a lab that cannot even be graded. */
function brokenLab(lab: string, requirement: string, message: string, hint: string): GradeReport {
  return {
    lab,
    passed: 0,
    failed: 1,
    results: [{ requirement, passed: false, message, hint, durationMs: 0 }],
  };
}

/** Loads a lab's grader and runs its checks against `dir`. */
export async function gradeLab(lab: string, dir: string, gradersDir: string): Promise<GradeReport> {
  const file = join(gradersDir, `${lab}.grade.ts`);
  if (!existsSync(file)) {
    return brokenLab(lab, "the lab has a grader", `no ${file}`, "graders live in test/labs/<lab>.grade.ts");
  }
  let checks: Check[];
  let title = lab;
  try {
    const mod = (await import(pathToFileURL(file).href)) as { default?: LabGrader };
    if (!mod.default || typeof mod.default.checks !== "function") {
      throw new Error(`${file} must \`export default defineLab({ checks })\``);
    }
    title = mod.default.title ? `${lab}: ${mod.default.title}` : lab;
    checks = await mod.default.checks(dir);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return brokenLab(
      lab,
      "the lab's code loads",
      message,
      "the lab's code must import without throwing; `npm run typecheck` shows type errors",
    );
  }
  return runChecks(title, checks);
}

/** Grades the selected labs and prints their reports; resolves 0 when every requirement is met. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseGradeArgs(args);
  const labs = listLabs(parsed.labsDir).filter((l) => !parsed.filter || l.includes(parsed.filter));
  if (labs.length === 0) {
    process.stdout.write(`workbook grade: no labs in ${parsed.labsDir} yet; nothing to grade\n`);
    return 0;
  }
  register(new URL("../grading/ts-hooks.js", import.meta.url));
  const reports: GradeReport[] = [];
  for (const lab of labs) {
    const report = await gradeLab(lab, join(parsed.labsDir, lab), parsed.gradersDir);
    process.stdout.write(formatReport(report));
    reports.push(report);
  }
  process.stdout.write(formatSummary(reports));
  return reports.every((r) => r.failed === 0) ? 0 : 1;
}
