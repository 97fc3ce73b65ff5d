/**
 * A code cell's outputs as HTML, choosing per output the richest form the site can show, as JupyterLab does:
 * mermaid (drawn by the page), HTML, markdown (check results and tables are markdown), images, then plain text.
 * Long text is folded, errors are marked as errors and stripped of terminal colours.
 */
import { escapeHtml, stripAnsi } from "./html.js";
import { type MarkdownSource, mermaidBlock, renderMarkdown } from "./markdown.js";
import { type NotebookOutput, text } from "./notebook-json.js";

/** Text outputs longer than this many lines are folded into a `<details>` the reader can open. */
export const FOLD_LINES = 40;

function textBlock(body: string, kind: string): string {
  const lines = body.replace(/\n$/, "").split("\n");
  const pre = `<pre class="output ${kind}">${escapeHtml(lines.join("\n"))}</pre>`;
  if (lines.length <= FOLD_LINES) return pre;
  return `<details class="long-output"><summary>${lines.length} lines of output</summary>${pre}</details>`;
}

function richOutput(data: Record<string, unknown>, source: MarkdownSource): string {
  const mermaid = data["text/vnd.mermaid"];
  if (mermaid !== undefined) return mermaidBlock(text(mermaid as string));
  if (data["text/html"] !== undefined)
    return `<div class="output html">${text(data["text/html"] as string)}</div>`;
  if (data["text/markdown"] !== undefined) {
    return `<div class="output markdown">${renderMarkdown(text(data["text/markdown"] as string), source)}</div>`;
  }
  if (data["image/svg+xml"] !== undefined)
    return `<div class="output image">${text(data["image/svg+xml"] as string)}</div>`;
  for (const type of ["image/png", "image/jpeg"]) {
    if (data[type] !== undefined) {
      const base64 = text(data[type] as string).replace(/\s/g, "");
      return `<div class="output image"><img alt="output" src="data:${type};base64,${base64}"></div>`;
    }
  }
  if (data["text/plain"] !== undefined) return textBlock(text(data["text/plain"] as string), "plain");
  return "";
}

/** One output as HTML (empty for outputs with nothing to show). */
export function renderOutput(output: NotebookOutput, source: MarkdownSource): string {
  switch (output.output_type) {
    case "stream":
      return textBlock(stripAnsi(text(output.text)), output.name === "stderr" ? "stderr" : "stdout");
    case "error": {
      const trace = stripAnsi((output.traceback ?? []).join("\n")).trim();
      return textBlock(trace || `${output.ename}: ${output.evalue}`, "error");
    }
    default:
      return richOutput((output.data ?? {}) as Record<string, unknown>, source);
  }
}

/** Every output of a cell, in order, inside one `<div class="outputs">` (empty string when there are none). */
export function renderOutputs(outputs: readonly NotebookOutput[], source: MarkdownSource): string {
  const parts = outputs.map((o) => renderOutput(o, source)).filter(Boolean);
  return parts.length > 0 ? `<div class="outputs">${parts.join("\n")}</div>` : "";
}

/** The text a reader sees in the outputs (streams, markdown, plain text), for finding check summaries. */
export function outputText(output: NotebookOutput): string {
  if (output.output_type === "stream") return text(output.text);
  const data = (output.data ?? {}) as Record<string, unknown>;
  return [data["text/markdown"], data["text/plain"]].map((d) => text(d as string)).join("\n");
}
