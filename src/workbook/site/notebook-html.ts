/**
 * One executed notebook as the body of its page: a header with its time, topics and check result, then every
 * cell in order (markdown rendered, code highlighted with its outputs below), then links to the previous and
 * next notebooks. Model answers stay `<details>` blocks, so they are folded until the reader opens them.
 */
import { codeBlock } from "./code.js";
import { escapeHtml } from "./html.js";
import { renderMarkdown } from "./markdown.js";
import type { NotebookInfo } from "./notebook-info.js";
import { type NotebookJson, text } from "./notebook-json.js";
import { renderOutputs } from "./outputs.js";

/** The badges of a notebook: time, topics, and its checks (green when all passed, red otherwise). */
export function notebookBadges(info: NotebookInfo): string {
  const badges = [`<span class="badge">${info.estimated ? "about " : ""}${info.minutes} min</span>`];
  for (const topic of info.topics) badges.push(`<span class="badge">${escapeHtml(topic)}</span>`);
  if (info.checks) {
    const { passed, total } = info.checks;
    const kind = passed === total ? "ok" : "bad";
    badges.push(`<span class="badge ${kind}">${passed}/${total} checks</span>`);
  }
  return badges.join("");
}

/** Neighbours in the learning path, for the pager at the bottom. */
export interface Neighbours {
  previous?: NotebookInfo;
  next?: NotebookInfo;
}

/** The page body of notebook `info.name` (site page `notebooks/<name>.html`). */
export function notebookBody(info: NotebookInfo, nb: NotebookJson, around: Neighbours = {}): string {
  const source = { repoFile: `notebooks/${info.name}.ipynb`, sitePage: `notebooks/${info.name}.html` };
  const parts = [`<p class="badges">${notebookBadges(info)}</p>`];
  for (const cell of nb.cells) {
    if (cell.cell_type === "markdown") {
      parts.push(`<div class="cell markdown">${renderMarkdown(text(cell.source), source)}</div>`);
    } else if (cell.cell_type === "code") {
      const count = cell.execution_count ?? " ";
      parts.push(
        `<div class="cell code"><div class="prompt">[${count}]</div>${codeBlock(text(cell.source), "typescript")}` +
          `${renderOutputs(cell.outputs ?? [], source)}</div>`,
      );
    }
  }
  const link = (nb: NotebookInfo | undefined, rel: string) =>
    nb ? `<a rel="${rel}" href="${nb.name}.html">${escapeHtml(nb.title)}</a>` : "<span></span>";
  parts.push(`<nav class="pager">${link(around.previous, "prev")}${link(around.next, "next")}</nav>`);
  return parts.join("\n");
}
