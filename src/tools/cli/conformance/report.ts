/**
 * The conformance report: the same API scenarios run once per backend, read back from vitest's JSON reporter
 * and laid out side by side. The embedded server is the one under test; a real kube-apiserver (envtest, kind,
 * any kubeconfig) is the reference, so a scenario whose outcome differs between them is a fidelity bug in the
 * embedded server.
 */
import { relative } from "node:path";

/** The outcome of one scenario on one backend. */
export type ScenarioOutcome = "passed" | "failed" | "skipped";

/** One scenario's result: outcome plus the first failure line. */
export interface ScenarioResult {
  outcome: ScenarioOutcome;
  message?: string;
}

/** One backend's run of the suite. `error` is set when the suite could not run at all. */
export interface BackendRun {
  backend: string;
  /** Keyed by `<file> > <describe> > <test>`. */
  results: Map<string, ScenarioResult>;
  error?: string;
}

/** A scenario whose outcome on a real backend differs from the embedded one. */
export interface ConformanceDifference {
  scenario: string;
  backend: string;
  embedded: ScenarioResult;
  real: ScenarioResult;
}

interface VitestAssertion {
  ancestorTitles?: string[];
  title?: string;
  fullName?: string;
  status?: string;
  failureMessages?: string[];
}

interface VitestFile {
  name?: string;
  assertionResults?: VitestAssertion[];
}

function outcomeOf(status: string | undefined): ScenarioOutcome {
  if (status === "passed") return "passed";
  if (status === "failed") return "failed";
  return "skipped";
}

/** First non-empty line of a failure message, without ANSI colour codes. */
function firstLine(message: string | undefined): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ESC-based ANSI colour sequences.
  const clean = message?.replace(/\u001b\[[0-9;]*m/g, "");
  return clean
    ?.split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
}

/**
 * Reads vitest's JSON report (`--reporter=json`, jest-compatible: `testResults[].assertionResults[]`). File names
 * are made relative to `root`. Throws on anything that is not such a report.
 */
export function parseVitestJson(report: unknown, root: string): Map<string, ScenarioResult> {
  const files = (report as { testResults?: VitestFile[] } | null)?.testResults;
  if (!Array.isArray(files)) throw new Error("Not a vitest JSON report (no testResults array).");
  const results = new Map<string, ScenarioResult>();
  for (const file of files) {
    const fileName = file.name ? relative(root, file.name) : "?";
    for (const a of file.assertionResults ?? []) {
      const path = [...(a.ancestorTitles ?? []), a.title ?? a.fullName ?? "?"].join(" > ");
      const outcome = outcomeOf(a.status);
      const message = outcome === "failed" ? firstLine(a.failureMessages?.[0]) : undefined;
      results.set(`${fileName} > ${path}`, message ? { outcome, message } : { outcome });
    }
  }
  return results;
}

/** Scenarios whose outcome differs from the `reference` backend's (only where both ran it). */
export function conformanceDifferences(
  runs: readonly BackendRun[],
  reference = "embedded",
): ConformanceDifference[] {
  const ref = runs.find((r) => r.backend === reference);
  if (!ref) return [];
  const diffs: ConformanceDifference[] = [];
  for (const run of runs) {
    if (run === ref) continue;
    for (const [scenario, real] of run.results) {
      const embedded = ref.results.get(scenario);
      if (!embedded || embedded.outcome === "skipped" || real.outcome === "skipped") continue;
      if (embedded.outcome !== real.outcome) diffs.push({ scenario, backend: run.backend, embedded, real });
    }
  }
  return diffs;
}

const MARK: Record<ScenarioOutcome, string> = { passed: "pass", failed: "**FAIL**", skipped: "skip" };

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The markdown report: a scenario × backend table, then every difference with both outcomes. */
export function renderConformanceReport(runs: readonly BackendRun[], reference = "embedded"): string {
  const scenarios = [...new Set(runs.flatMap((r) => [...r.results.keys()]))].sort();
  const header = `| scenario | ${runs.map((r) => r.backend).join(" | ")} |`;
  const rule = `|---|${runs.map(() => "---").join("|")}|`;
  const rows = scenarios.map((s) => {
    const cells = runs.map((r) => {
      const result = r.results.get(s);
      return result ? MARK[result.outcome] : r.error ? "not run" : "-";
    });
    return `| ${cell(s)} | ${cells.join(" | ")} |`;
  });
  const lines = ["# Conformance: the API scenario suite on every backend", "", header, rule, ...rows, ""];
  for (const r of runs) if (r.error) lines.push(`- ${r.backend} could not run: ${cell(r.error)}`);
  const diffs = conformanceDifferences(runs, reference);
  lines.push("", `## Differences from ${reference} (${diffs.length})`, "");
  if (diffs.length === 0) lines.push("None: every scenario that ran on both had the same outcome.");
  for (const d of diffs) {
    lines.push(
      `- **${cell(d.scenario)}**: ${reference} ${d.embedded.outcome}${d.embedded.message ? ` (${cell(d.embedded.message)})` : ""}; ` +
        `${d.backend} ${d.real.outcome}${d.real.message ? ` (${cell(d.real.message)})` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
