/**
 * What the index says about each notebook: its title and opening paragraph (read from its first markdown cell),
 * how long it takes, what it is about, and how its checks went when the site was built.
 *
 * Time and topics come from the notebook's metadata when its author set them,
 * `metadata["kube-controller-workbook"] = { "minutes": 25, "topics": ["watch", "cache"] }`; otherwise the topics
 * are those of the notebook's questions in the bank, and the time is estimated from its length.
 */

import { type NotebookJson, text } from "./notebook-json.js";
import { outputText } from "./outputs.js";

/** The index's facts about one notebook. */
export interface NotebookInfo {
  /** File name without `.ipynb`: `00-cluster`. */
  name: string;
  /** The title, from the first `# ` heading (`00 · A cluster to talk to`); the name when there is none. */
  title: string;
  /** The first paragraph after the title, as plain text. */
  summary: string;
  minutes: number;
  /** True when `minutes` is an estimate from the notebook's length rather than its author's figure. */
  estimated: boolean;
  topics: string[];
  /** The last "N/M checks" the executed notebook showed, if any. */
  checks?: { passed: number; total: number };
}

/** The author's settings in a notebook's metadata, if any. */
interface AuthorMetadata {
  minutes?: unknown;
  topics?: unknown;
}

/** Reading speed and time per code cell behind the estimate (reading, running, looking at the result). */
const WORDS_PER_MINUTE = 180;
const MINUTES_PER_CODE_CELL = 1;

/** Markdown reduced to its words, for summaries: no emphasis marks, code ticks or link targets. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Minutes to work through a notebook: its prose at reading speed plus a minute per code cell, to 5 minutes. */
export function estimateMinutes(nb: NotebookJson): number {
  let words = 0;
  let code = 0;
  for (const cell of nb.cells) {
    if (cell.cell_type === "markdown") words += text(cell.source).split(/\s+/).filter(Boolean).length;
    if (cell.cell_type === "code") code += 1;
  }
  const minutes = words / WORDS_PER_MINUTE + code * MINUTES_PER_CODE_CELL;
  return Math.max(5, Math.ceil(minutes / 5) * 5);
}

/** The last "N/M checks" in the notebook's outputs. */
export function checkSummary(nb: NotebookJson): { passed: number; total: number } | undefined {
  let found: { passed: number; total: number } | undefined;
  for (const cell of nb.cells) {
    for (const output of cell.outputs ?? []) {
      for (const m of outputText(output).matchAll(/(\d+)\s*\/\s*(\d+) checks\b/g)) {
        found = { passed: Number(m[1]), total: Number(m[2]) };
      }
    }
  }
  return found;
}

/** The facts of {@link NotebookInfo}; `questionTopics` are the topics of this notebook's questions. */
export function notebookInfo(
  name: string,
  nb: NotebookJson,
  questionTopics: readonly string[] = [],
): NotebookInfo {
  const first = nb.cells.find((c) => c.cell_type === "markdown");
  const lines = text(first?.source).split("\n");
  const heading = lines.findIndex((l) => /^#\s/.test(l));
  const title = heading >= 0 ? lines[heading]!.replace(/^#\s+/, "").trim() : name;
  const rest = lines.slice(heading + 1).join("\n");
  const paragraph = rest.split(/\n\s*\n/).find((p) => p.trim() && !/^\s*[|#`<-]/.test(p)) ?? "";
  const author = (nb.metadata?.["kube-controller-workbook"] ?? {}) as AuthorMetadata;
  const minutes = typeof author.minutes === "number" && author.minutes > 0 ? author.minutes : undefined;
  const topics = Array.isArray(author.topics) ? author.topics.map(String) : [...new Set(questionTopics)];
  return {
    name,
    title,
    summary: plainText(paragraph),
    minutes: minutes ?? estimateMinutes(nb),
    estimated: minutes === undefined,
    topics,
    checks: checkSummary(nb),
  };
}
