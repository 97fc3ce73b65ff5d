/**
 * Renders a bench run: `latest.md` (per family a table with the peer columns and ratios, the peers that could
 * not run and why, and the family's mermaid charts), the JSON beside it, and the short console summary.
 */
import { formatValue } from "./measure.js";
import type { BenchFigure, BenchResult } from "./types.js";

/** Where and on what a run happened (printed at the top of the report). */
export interface RunInfo {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  /** `uptime`-style load averages at the start and end of the run. */
  loadStart: number[];
  loadEnd: number[];
  tiny: boolean;
  /** Peer versions, e.g. client-go v0.37.2, envtest kube-apiserver 1.34.4. */
  versions: Record<string, string>;
}

/** One family's outcome in a run. */
export interface FamilyReport extends BenchResult {
  family: string;
  title: string;
  seconds: number;
  /** Set when the family itself failed; its figures are then whatever it had. */
  error?: string;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A ratio of two tiny figures can be 0/0; it crosses from a family's process as JSON, where NaN turns null. */
function ratioText(ratio: number | null): string {
  return typeof ratio === "number" && Number.isFinite(ratio) ? `x${ratio.toFixed(2)}` : "no ratio";
}

function peersCell(f: BenchFigure): string {
  return (f.peers ?? []).map((p) => `${p.name}: ${formatValue(p.value)} (${ratioText(p.ratio)})`).join("; ");
}

function metCell(f: BenchFigure): string {
  return f.met === undefined ? "" : f.met ? "met" : "MISSED";
}

/** The markdown table rows of one family. */
export function figureTable(figures: readonly BenchFigure[]): string[] {
  const rows = ["| figure | ours | unit | target | met | peers (value, ours-vs-peer ratio) | notes |"];
  rows.push("|---|---|---|---|---|---|---|");
  for (const f of figures) {
    rows.push(
      `| ${cell(f.name)} | ${formatValue(f.value)} | ${cell(f.unit)} | ${cell(f.target ?? "")} | ${metCell(f)} | ${cell(peersCell(f))} | ${cell(f.notes ?? "")} |`,
    );
  }
  return rows;
}

/** The whole `latest.md`. */
export function renderMarkdown(info: RunInfo, families: readonly FamilyReport[]): string {
  const lines = [
    `# Benchmarks${info.tiny ? " (tiny run: harness check, numbers mean nothing)" : ""}`,
    "",
    `${info.date}; Node ${info.node}; ${info.cpus} x ${info.cpuModel}; load average ${info.loadStart.map((l) => l.toFixed(1)).join(" ")} at start, ${info.loadEnd.map((l) => l.toFixed(1)).join(" ")} at end.`,
    `Versions: ${Object.entries(info.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "Ratios are ours against the peer measured in the same run, above 1 = better for us.",
    "",
  ];
  for (const f of families) {
    lines.push(`## ${f.family}: ${f.title}`, "", `${f.seconds.toFixed(1)} s.`, "");
    if (f.error) lines.push(`**The family failed:** ${cell(f.error)}`, "");
    if (f.figures.length > 0) lines.push(...figureTable(f.figures), "");
    for (const m of f.missing) lines.push(`- peer missing: ${m}`);
    if (f.missing.length > 0) lines.push("");
    for (const chart of f.charts) lines.push("```mermaid", chart.trimEnd(), "```", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** A few console lines per family: every figure with a target, and missing peers. */
export function renderSummary(families: readonly FamilyReport[]): string[] {
  const out: string[] = [];
  for (const f of families) {
    const targets = f.figures.filter((x) => x.target !== undefined);
    const met = targets.filter((x) => x.met).length;
    out.push(
      `${f.family}: ${f.error ? `FAILED (${f.error.split("\n")[0]})` : `${met}/${targets.length} targets met`} in ${f.seconds.toFixed(0)} s`,
    );
    for (const x of targets) {
      const ratio = x.peers?.[0] ? ` (${ratioText(x.peers[0].ratio)} vs ${x.peers[0].name})` : "";
      out.push(
        `  ${x.met ? "met   " : "MISSED"} ${x.name}: ${formatValue(x.value)} ${x.unit} ${x.target}${ratio}`,
      );
    }
    for (const m of f.missing) out.push(`  peer missing: ${m}`);
  }
  return out;
}
