import type { GradeReport } from "./check.js";

/**
 * A report as plain text: the lab, then one bullet per requirement (`[x]` met, `[ ]` not met) with the reason
 * and hint indented under a failure, then the lab's score.
 */
export function formatReport(report: GradeReport): string {
  const lines = [`${report.lab}`];
  for (const r of report.results) {
    lines.push(`  ${r.passed ? "[x]" : "[ ]"} ${r.requirement}`);
    if (!r.passed) {
      if (r.message) lines.push(`        why:  ${r.message.replace(/\n/g, "\n              ")}`);
      if (r.hint) lines.push(`        hint: ${r.hint}`);
    }
  }
  const total = report.passed + report.failed;
  lines.push(`  ${report.passed}/${total} requirements met`);
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
