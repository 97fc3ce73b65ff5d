/**
 * Choosing questions from the bank: by notebook, section, topic, difficulty or id. The notebook renderer, the
 * quiz and the consistency test all select through {@link selectQuestions}, so they agree on what a filter means.
 */
import { QUESTION_BANK } from "./bank/index.js";
import type { Difficulty, Question, Topic } from "./question.js";

/** A filter over the bank; every given field must match (an absent field matches everything). */
export interface QuestionFilter {
  /** Notebook name, `00-cluster`; a bare number `00` or `0` matches the notebook with that number. */
  notebook?: string;
  /** A section title, or its leading number ("2" or "2." matches "2. Create and list objects"). */
  section?: string;
  topic?: Topic;
  difficulty?: Difficulty;
  /** Only these ids. */
  ids?: readonly string[];
}

/** True when `notebook` names `question`'s notebook, by full name or by number. */
export function matchesNotebook(question: Question, notebook: string): boolean {
  if (question.notebook === notebook) return true;
  if (!/^\d+$/.test(notebook)) return false;
  return Number(question.notebook.split("-")[0]) === Number(notebook);
}

/** True when `section` names `question`'s section, by full title or by its leading number. */
export function matchesSection(question: Question, section: string): boolean {
  if (question.section === section) return true;
  const number = /^(\d+)\.?$/.exec(section.trim());
  return number !== null && question.section.startsWith(`${number[1]}.`);
}

/** The questions of `bank` (default: the whole bank) that match `filter`, in bank order. */
export function selectQuestions(
  filter: QuestionFilter = {},
  bank: readonly Question[] = QUESTION_BANK,
): Question[] {
  const ids = filter.ids ? new Set(filter.ids) : undefined;
  return bank.filter(
    (q) =>
      (filter.notebook === undefined || matchesNotebook(q, filter.notebook)) &&
      (filter.section === undefined || matchesSection(q, filter.section)) &&
      (filter.topic === undefined || q.topic === filter.topic) &&
      (filter.difficulty === undefined || q.difficulty === filter.difficulty) &&
      (ids === undefined || ids.has(q.id)),
  );
}

/** The question with `id`; throws naming the id when there is none (a typo in a notebook is caught early). */
export function questionById(id: string, bank: readonly Question[] = QUESTION_BANK): Question {
  const found = bank.find((q) => q.id === id);
  if (!found) throw new Error(`no question "${id}" in the bank (src/workbook/questions/bank/)`);
  return found;
}
