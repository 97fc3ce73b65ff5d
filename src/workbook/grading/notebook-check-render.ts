/**
 * How notebook checks look: one markdown block per check (a line when it passes; expected / got / where to
 * look / hint when it fails) and the closing summary. Markdown renders in JupyterLab and reads as plain text in
 * a terminal, so the same strings serve both.
 */

/** The outcome of one notebook check, as recorded by {@link NotebookChecks}. */
export interface NotebookCheckResult {
  /** The check's name, phrased as what should be true: "three ConfigMaps are listed". */
  name: string;
  status: "passed" | "failed" | "skipped";
  /** For a failure: what was expected, and what happened instead. */
  expected?: string;
  actual?: string;
  /** Where to look (a cell or section), shown with a failure. */
  where?: string;
  /** A nudge shown with a failure; for a skip, the reason. */
  hint?: string;
  durationMs: number;
}

/** Counts over a notebook's checks. `total` excludes skipped checks. */
export interface NotebookCheckTotals {
  notebook: string;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

/** Prefix of the machine-readable summary line the headless runner looks for: `checks: 6/6 passed`. */
export const CHECKS_LINE_PREFIX = "checks: ";

function inline(text: string): string {
  const flat = text.replace(/\r?\n/g, " ");
  return flat.includes("`") ? flat : `\`${flat}\``;
}

/** Markdown for one check: a single line when it passed or was skipped, a block when it failed. */
export function renderCheckResult(result: NotebookCheckResult): string {
  if (result.status === "passed") return `✅ check passed: **${result.name}**\n`;
  if (result.status === "skipped")
    return `⏭️ check skipped: **${result.name}** (${result.hint ?? "no reason"})\n`;
  const lines = [`❌ **check failed: ${result.name}**`, ""];
  lines.push(`- expected: ${inline(result.expected ?? "the check to pass")}`);
  lines.push(`- got: ${inline(result.actual ?? "a failure")}`);
  lines.push(`- where to look: ${result.where ?? "the cells above this check"}`);
  if (result.hint) lines.push(`- hint: ${result.hint}`);
  lines.push("", "_The notebook goes on; the summary at the end counts this failure._");
  return `${lines.join("\n")}\n`;
}

/** The plain summary line, e.g. `checks: 5/6 passed, 1 failed, 1 skipped (00-cluster)`. */
export function checksLine(totals: NotebookCheckTotals): string {
  let line = `${CHECKS_LINE_PREFIX}${totals.passed}/${totals.total} passed`;
  if (totals.failed > 0) line += `, ${totals.failed} failed`;
  if (totals.skipped > 0) line += `, ${totals.skipped} skipped`;
  return `${line} (${totals.notebook})`;
}

/** Markdown for the closing summary: the count, then every check with its mark, failures first. */
export function renderSummary(totals: NotebookCheckTotals, results: readonly NotebookCheckResult[]): string {
  const mark = { passed: "✅", failed: "❌", skipped: "⏭️" } as const;
  const head =
    totals.failed === 0
      ? `### ${totals.passed}/${totals.total} checks passed`
      : `### ${totals.passed}/${totals.total} checks passed: ${totals.failed} failed`;
  const order = [...results].sort((a, b) => Number(b.status === "failed") - Number(a.status === "failed"));
  const lines = [head, ""];
  for (const r of order) {
    let line = `- ${mark[r.status]} ${r.name}`;
    if (r.status === "failed") line += `: expected ${r.expected ?? "a pass"}, got ${r.actual ?? "a failure"}`;
    if (r.status === "failed" && r.where) line += ` (look at ${r.where})`;
    if (r.status === "skipped") line += ` (skipped: ${r.hint ?? "no reason"})`;
    lines.push(line);
  }
  if (results.length === 0) lines.push("No check ran: run the notebook from the top.");
  return `${lines.join("\n")}\n`;
}
