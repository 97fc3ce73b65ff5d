import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { listNotebooks } from "../../../src/tools/cli/notebooks.js";
import { projectRoot } from "../../../src/tools/cli/workbook-paths.js";
import { DIFFICULTIES, QUESTION_BANK, TOPICS } from "../../../src/workbook/questions/index.js";
import { BANK_REVIEW_NOTEBOOKS, questionsShownBy, showQuestionCalls } from "./notebook-questions.js";

const notebooksDir = join(projectRoot(), "notebooks");
const notebooks = listNotebooks(notebooksDir).map((f) => basename(f, ".ipynb"));

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
