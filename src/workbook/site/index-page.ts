/**
 * The site's front page: what the workbook is, the learning path as a diagram, a card per notebook (time,
 * topics, checks, first paragraph), the labs and the question bank.
 */
import { escapeHtml } from "./html.js";
import { learningPathDiagram } from "./learning-path.js";
import { mermaidBlock } from "./markdown.js";
import { notebookBadges } from "./notebook-html.js";
import type { NotebookInfo } from "./notebook-info.js";

/** A lab as the index lists it: its folder name and its README's title. */
export interface LabInfo {
  name: string;
  title: string;
}

/** The body of `index.html`. */
export function indexBody(
  notebooks: readonly NotebookInfo[],
  labs: readonly LabInfo[],
  questions: number,
): string {
  const cards = notebooks.map(
    (nb) =>
      `<li><h3><a href="notebooks/${nb.name}.html">${escapeHtml(nb.title)}</a></h3>` +
      `<div>${notebookBadges(nb)}</div><p>${escapeHtml(nb.summary)}</p></li>`,
  );
  const labItems = labs.map((lab) => `<li><a href="labs/${lab.name}.html">${escapeHtml(lab.title)}</a></li>`);
  return [
    "<h1>The Kubernetes controller pattern, built, broken and measured</h1>",
    "<p>Notebooks in TypeScript that build a controller's parts one at a time (watch, cache, shared informer, " +
      "work queue, reconcile, finalizers, leader election) against a real API server, then break them on " +
      "purpose. These pages show every notebook as it ran when the site was built: code, outputs, pictures " +
      "and the result of its checks. To run them yourself: <code>npm install</code>, then <code>npm start</code>.</p>",
    "<h2>The learning path</h2>",
    mermaidBlock(learningPathDiagram(notebooks)),
    '<h2 id="notebooks">Notebooks</h2>',
    notebooks.length > 0 ? `<ul class="cards">${cards.join("\n")}</ul>` : "<p>No notebooks yet.</p>",
    "<h2>Labs</h2>",
    '<p>Each lab asks you to build what its notebook showed; a grader checks the outcome. <a href="labs/index.html">' +
      "How labs work</a>.</p>",
    labItems.length > 0 ? `<ul>${labItems.join("\n")}</ul>` : "<p>No labs yet.</p>",
    "<h2>Questions</h2>",
    `<p><a href="questions.html">${questions} interview questions</a>, each answered by a notebook.</p>`,
  ].join("\n");
}
