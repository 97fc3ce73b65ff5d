/**
 * Comparing a typed answer with a question's key points, for the mock interview. Deliberately simple and
 * transparent: a key point counts as covered when the answer contains one of its terms, after both are
 * lower-cased and stripped of punctuation ("Re-read" matches "re read"). It cannot judge an answer; it tells the
 * learner which points a reviewer would look for and did not find.
 */
import type { KeyPoint, Question } from "./question.js";

/** Which key points an answer covered and which it missed. */
export interface AnswerScore {
  covered: KeyPoint[];
  missed: KeyPoint[];
  /** covered / all key points, 0..1 (1 when the question has none). */
  ratio: number;
}

/** Lower case, punctuation to spaces, single spaces, padded: the form both answer and terms are compared in. */
export function normaliseText(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

/** True when `answer` mentions any of the point's terms. */
export function coversKeyPoint(answer: string, point: KeyPoint): boolean {
  const text = normaliseText(answer);
  return point.terms.some((term) => {
    const t = normaliseText(term).trim();
    return t.length > 0 && text.includes(t);
  });
}

/** Scores `answer` against `question`'s key points. */
export function scoreAnswer(question: Question, answer: string): AnswerScore {
  const covered: KeyPoint[] = [];
  const missed: KeyPoint[] = [];
  for (const point of question.keyPoints) (coversKeyPoint(answer, point) ? covered : missed).push(point);
  const ratio = question.keyPoints.length === 0 ? 1 : covered.length / question.keyPoints.length;
  return { covered, missed, ratio };
}
