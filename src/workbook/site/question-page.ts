/**
 * The question bank as a page: every interview question grouped by the notebook that answers it, with its
 * topic and difficulty, a link to that notebook's page, and the model answer folded in a `<details>`.
 */
import type { Question } from "../questions/question.js";
import { escapeHtml } from "./html.js";
import { renderMarkdown } from "./markdown.js";

/** The fields of a bank question the page shows. */
export type BankQuestion = Pick<
  Question,
  "id" | "question" | "answer" | "topic" | "notebook" | "section" | "difficulty"
>;

/** The body of `questions.html`; `titles` maps a notebook name to its title (for the group headings). */
export function questionsBody(
  questions: readonly BankQuestion[],
  titles: ReadonlyMap<string, string>,
): string {
  const parts = [
    "<h1>Questions</h1>",
    "<p>Interview-style questions, each answered by a notebook. Try to answer before you open the model " +
      "answer; <code>npm run quiz</code> asks them in the terminal.</p>",
  ];
  if (questions.length === 0) parts.push("<p>No questions in the bank yet.</p>");
  const byNotebook = new Map<string, BankQuestion[]>();
  for (const q of questions) byNotebook.set(q.notebook, [...(byNotebook.get(q.notebook) ?? []), q]);
  for (const [notebook, list] of [...byNotebook].sort(([a], [b]) => a.localeCompare(b))) {
    const title = titles.get(notebook);
    const heading = title
      ? `<a href="notebooks/${notebook}.html">${escapeHtml(title)}</a>`
      : escapeHtml(notebook);
    parts.push(`<h2 id="${escapeHtml(notebook)}">${heading}</h2>`);
    for (const q of list) {
      const source = { repoFile: `notebooks/${q.notebook}.ipynb`, sitePage: "questions.html" };
      parts.push(
        `<section class="question" id="${escapeHtml(q.id)}"><h3>${escapeHtml(q.question)}</h3>` +
          `<p class="meta"><span class="badge">${escapeHtml(q.topic)}</span>` +
          `<span class="badge">${escapeHtml(q.difficulty)}</span> shown in: ${escapeHtml(q.section)}</p>` +
          `<details><summary>Model answer</summary>${renderMarkdown(q.answer, source)}</details></section>`,
      );
    }
  }
  return parts.join("\n");
}
