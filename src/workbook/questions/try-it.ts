/**
 * "Try it yourself" prompts: each names the cell to change, the change, and what to watch for, so a learner
 * experiments with a purpose ("set the worker count to 1: how many reconciles now?").
 */
import { type ShowOptions, showMarkdown } from "../viz/display.js";

/** One prompt. */
export interface TryIt {
  /** Which cell to edit, as the learner finds it: "section 2, the cell that creates the ConfigMaps". */
  cell: string;
  /** What to change: "create ten ConfigMaps instead of three". */
  change: string;
  /** What to watch for, ideally as a question: "does the list's resourceVersion move by ten?". */
  watch: string;
}

/** Markdown for a numbered list of prompts under a "Try it yourself" heading. */
export function renderTryIt(prompts: readonly TryIt[]): string {
  const items = prompts.map((p, i) => `${i + 1}. **In ${p.cell}:** ${p.change}. **Watch:** ${p.watch}`);
  return `### Try it yourself\n\n${items.join("\n")}\n`;
}

/** Shows {@link renderTryIt} in the notebook (plain markdown outside a kernel). */
export function showTryIt(prompts: readonly TryIt[], options: ShowOptions = {}): void {
  if (prompts.length === 0) throw new Error("showTryIt: give at least one prompt");
  showMarkdown(renderTryIt(prompts), options);
}
