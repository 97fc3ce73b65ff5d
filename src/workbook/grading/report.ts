import type { GradeReport } from "./check.js";

/**
 * A report as plain text: the lab, then one bullet per requirement (`[x]` met, `[ ]` not met) with the reason
 * and hint indented under a failure, then the lab's score and the count of each {@link Check.tally}.
 */
export function formatReport(report: GradeReport): string {
  const lines = [`${report.lab}`];
  for (const r of report.results) {
    if (r.notApplicable !== undefined) {
      lines.push(`  [-] ${r.requirement}`, `        not checked on this track: ${r.notApplicable}`);
      continue;
    }
    lines.push(`  ${r.passed ? "[x]" : "[ ]"} ${r.requirement}`);
    if (!r.passed) {
      if (r.message) lines.push(`        why:  ${r.message.replace(/\n/g, "\n              ")}`);
      if (r.hint) lines.push(`        hint: ${r.hint}`);
    }
  }
  const total = report.passed + report.failed;
  lines.push(`  ${report.passed}/${total} requirements met`);
  for (const tally of new Set(report.results.flatMap((r) => (r.tally === undefined ? [] : [r.tally])))) {
    const counted = report.results.filter((r) => r.tally === tally && r.notApplicable === undefined);
    lines.push(`  ${counted.filter((r) => r.passed).length}/${counted.length} ${tally}`);
  }
  return `${lines.join("\n")}\n`;
}

/** One closing line over several labs: `grade: 5/7 requirements met in 2 labs (1 lab complete)`. */
export function formatSummary(reports: readonly GradeReport[]): string {
  const met = reports.reduce((n, r) => n + r.passed, 0);
  const total = reports.reduce((n, r) => n + r.passed + r.failed, 0);
  const complete = reports.filter((r) => r.failed === 0 && r.passed > 0).length;
  const labs = reports.length === 1 ? "1 lab" : `${reports.length} labs`;
  return `grade: ${met}/${total} requirements met in ${labs} (${complete} complete)\n`;
}

/** The JSON report of one `workbook grade --json` run: what a teacher collects from each learner. */
export interface GradeRunReport {
  /** Identifies the format for whoever reads it later. */
  format: "workbook-grade/v1";
  startedAt: string;
  finishedAt: string;
  /** The folder graded (labs/ or solutions/). */
  labsDir: string;
  /** `WORKBOOK_CLUSTER` the checks ran against. */
  cluster: string;
  /** Who and where, so collected reports can be told apart. */
  user: string;
  host: string;
  node: string;
  labs: GradeReport[];
  /** Requirements met and not met over every lab, and labs with every requirement met. */
  passed: number;
  failed: number;
  complete: number;
}

/** Assembles a {@link GradeRunReport} from the lab reports and where and when they were made. */
export function gradeRunReport(
  labs: readonly GradeReport[],
  meta: Pick<GradeRunReport, "startedAt" | "finishedAt" | "labsDir" | "cluster" | "user" | "host" | "node">,
): GradeRunReport {
  return {
    format: "workbook-grade/v1",
    ...meta,
    labs: [...labs],
    passed: labs.reduce((n, r) => n + r.passed, 0),
    failed: labs.reduce((n, r) => n + r.failed, 0),
    complete: labs.filter((r) => r.failed === 0 && r.passed > 0).length,
  };
}
