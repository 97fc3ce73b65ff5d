import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { listNotebooks } from "../../../src/tools/cli/notebooks.js";
import { projectRoot } from "../../../src/tools/cli/workbook-paths.js";
import {
  DIFFICULTIES,
  QUESTION_BANK,
  renderedSectionTitle,
  TOPICS,
} from "../../../src/workbook/questions/index.js";
import { BANK_REVIEW_NOTEBOOKS, questionsShownBy, showQuestionCalls } from "./notebook-questions.js";

const notebooksDir = join(projectRoot(), "notebooks");
const notebooks = listNotebooks(notebooksDir).map((f) => basename(f, ".ipynb"));

/** A notebook's headings (`## 3. Title`) as a link renders them: no backticks, no bold. */
function headingsOf(notebook: string): string[] {
  const nb = JSON.parse(readFileSync(join(notebooksDir, `${notebook}.ipynb`), "utf8")) as {
    cells: Array<{ cell_type: string; source: string | string[] }>;
  };
  return nb.cells
    .filter((c) => c.cell_type === "markdown")
    .flatMap((c) => (Array.isArray(c.source) ? c.source.join("") : c.source).split("\n"))
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => renderedSectionTitle(line.replace(/^#{1,6} /, "")));
}

/** Questions a notebook must carry: at least 12 each, the interview notebook's classics included. */
const MINIMUM_QUESTIONS: Record<string, number> = {};
const DEFAULT_MINIMUM = 12;

describe("the question bank", () => {
  it("has unique ids of the form NN-slug, matching their notebook's number", () => {
    const ids = QUESTION_BANK.map((q) => q.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const q of QUESTION_BANK) {
      expect(q.id, q.id).toMatch(/^\d{2}-[a-z0-9-]+$/);
      expect(q.id.slice(0, 3), `${q.id} belongs to ${q.notebook}`).toBe(q.notebook.slice(0, 3));
    }
  });

  it("every question is complete: text, a model answer that points back, key points with terms", () => {
    for (const q of QUESTION_BANK) {
      expect(q.question.trim().length, q.id).toBeGreaterThan(10);
      expect(q.answer.trim().length, `${q.id}: the answer explains why`).toBeGreaterThan(200);
      expect(q.answer, `${q.id}: the answer points back to its section`).toMatch(/[Ss]ection \d+/);
      expect(q.keyPoints.length, `${q.id}: key points`).toBeGreaterThanOrEqual(2);
      for (const k of q.keyPoints) expect(k.terms.length, `${q.id}: ${k.point}`).toBeGreaterThan(0);
      expect(Object.keys(TOPICS), q.id).toContain(q.topic);
      expect(DIFFICULTIES, q.id).toContain(q.difficulty);
      expect(q.section, q.id).toMatch(/^\d+\. \S/);
    }
  });

  it("holds at least 150 questions over the whole path, every difficulty at least 15% of them", () => {
    expect(QUESTION_BANK.length).toBeGreaterThanOrEqual(150);
    for (const difficulty of DIFFICULTIES) {
      const share = QUESTION_BANK.filter((q) => q.difficulty === difficulty).length / QUESTION_BANK.length;
      expect(share, `share of ${difficulty} questions`).toBeGreaterThanOrEqual(0.15);
    }
    const numbered = new Set(QUESTION_BANK.map((q) => q.notebook.slice(0, 2)));
    const path = Array.from({ length: 13 }, (_, i) => String(i).padStart(2, "0"));
    expect(
      path.filter((n) => !numbered.has(n)),
      "notebooks 00-12 without questions",
    ).toEqual([]);
  });

  it("every question links to a section heading of its notebook (else the link opens the notebook at the top)", () => {
    const headings = new Map<string, string[]>();
    const broken = QUESTION_BANK.filter((q) => {
      if (!existsSync(join(notebooksDir, `${q.notebook}.ipynb`))) return false; // the next test names it
      if (!headings.has(q.notebook)) headings.set(q.notebook, headingsOf(q.notebook));
      return !headings.get(q.notebook)!.includes(renderedSectionTitle(q.section));
    }).map((q) => `${q.id} -> ${q.notebook}, "${q.section}"`);
    expect(broken).toEqual([]);
  });

  it("the classics of notebook 12 point into the path: each answer names the notebooks that show it", () => {
    const classics = QUESTION_BANK.filter((q) => q.notebook === "12-interview-preparation");
    expect(classics.length).toBeGreaterThanOrEqual(12);
    expect(classics.filter((q) => !/notebooks? \d\d/i.test(q.answer)).map((q) => q.id)).toEqual([]);
  });

  it("every question's notebook exists", () => {
    for (const q of QUESTION_BANK) {
      expect(
        existsSync(join(notebooksDir, `${q.notebook}.ipynb`)),
        `${q.id}: notebooks/${q.notebook}.ipynb`,
      ).toBe(true);
    }
  });
});

describe.each(notebooks)("notebooks/%s.ipynb and the bank", (notebook) => {
  const calls = showQuestionCalls(join(notebooksDir, `${notebook}.ipynb`));

  it("shows questions with literal arguments only, each call selecting something", () => {
    expect(calls.length, "the notebook calls showQuestions(...)").toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.problem, call.source).toBeUndefined();
      expect(questionsShownBy([call]).length, `${call.source} selects no question`).toBeGreaterThan(0);
    }
  });

  it.skipIf(BANK_REVIEW_NOTEBOOKS.has(notebook))("shows exactly its bank questions, each once", () => {
    const shown = questionsShownBy(calls);
    const bank = QUESTION_BANK.filter((q) => q.notebook === notebook).map((q) => q.id);
    expect(
      shown.filter((id, i) => shown.indexOf(id) !== i),
      "shown twice",
    ).toEqual([]);
    expect([...shown].sort()).toEqual([...bank].sort());
    expect(
      shown.every((id) => id.startsWith(notebook.slice(0, 3))),
      "only its own questions",
    ).toBe(true);
  });

  it(`has at least ${MINIMUM_QUESTIONS[notebook] ?? DEFAULT_MINIMUM} questions`, () => {
    const count = QUESTION_BANK.filter((q) => q.notebook === notebook).length;
    expect(count).toBeGreaterThanOrEqual(MINIMUM_QUESTIONS[notebook] ?? DEFAULT_MINIMUM);
  });
});
