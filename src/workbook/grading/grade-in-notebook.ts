/**
 * Grading a lab from a notebook cell: the same checks `npm run grade` runs, rendered as a list with a hint under
 * each unmet requirement. It starts the `workbook grade --json` command in a child process (never in the
 * kernel), so a learner's endless loop cannot freeze the notebook, and reads its JSON report.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ShowOptions, showMarkdown } from "../viz/display.js";
import type { GradeRunReport } from "./report.js";

/** Options of {@link gradeInNotebook}. */
export interface GradeInNotebookOptions extends ShowOptions {
  /** Grade the reference answer in solutions/ instead of your work in labs/. */
  solutions?: boolean;
  /** Other folders (tests use fixture labs). */
  labsDir?: string;
  gradersDir?: string;
}

/** Markdown for a grade report: per lab, met requirements ticked, unmet ones with why and hint. */
export function renderGradeReport(report: GradeRunReport): string {
  if (report.labs.length === 0) return `No lab matched in ${report.labsDir}.\n`;
  const lines: string[] = [];
  for (const lab of report.labs) {
    const total = lab.passed + lab.failed;
    lines.push(`### ${lab.lab}: ${lab.passed}/${total} requirements met`, "");
    for (const r of lab.results) {
      if (r.passed) {
        lines.push(`- ✅ ${r.requirement}`);
        continue;
      }
      lines.push(`- ❌ **${r.requirement}**`);
      if (r.message) lines.push(`  - why: ${r.message.replace(/\r?\n/g, " ")}`);
      if (r.hint) lines.push(`  - hint: ${r.hint}`);
    }
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

/** The `workbook` command of this checkout (dist/tools/cli/main.js, two folders above this module). */
function workbookCli(): string {
  return fileURLToPath(new URL("../../../dist/tools/cli/main.js", import.meta.url));
}

/**
 * Runs `workbook grade --json` for `lab` (a folder name or a filter such as `01`) in a child process and
 * resolves with its report; rejects only when the grader could not run at all (its output is in the message).
 */
export function runGrade(lab: string, options: GradeInNotebookOptions = {}): Promise<GradeRunReport> {
  const args = [workbookCli(), "grade", "--json"];
  if (options.solutions) args.push("--solutions");
  if (options.labsDir) args.push("--labs-dir", options.labsDir);
  if (options.gradersDir) args.push("--graders-dir", options.gradersDir);
  args.push(lab);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        resolve(JSON.parse(stdout) as GradeRunReport);
      } catch {
        reject(new Error(`workbook grade ${lab} failed (exit ${code}):\n${stderr.slice(-2000)}`));
      }
    });
  });
}

/**
 * Grades `lab` and shows the result under the cell: `await gradeInNotebook("01-watch")`. Resolves to nothing so
 * the cell prints no stray value; {@link runGrade} gives the report as data.
 */
export async function gradeInNotebook(lab: string, options: GradeInNotebookOptions = {}): Promise<void> {
  showMarkdown(renderGradeReport(await runGrade(lab, options)), options);
}
