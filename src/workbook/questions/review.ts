/**
 * Reviewing one typed answer inside a notebook (the mock interview of `12-interview-preparation`): which key
 * points the answer made and which it missed, then the model answer folded away, with the section to revisit.
 */
import { type ShowOptions, showMarkdown } from "../viz/display.js";
import { scoreAnswer } from "./key-points.js";
import type { Question } from "./question.js";
import { sectionLink } from "./render.js";
import { questionById } from "./select.js";

/** Markdown: the question, covered and missed key points, the model answer in `<details>`, where to review. */
export function renderAnswerReview(question: Question, answer: string): string {
  const score = scoreAnswer(question, answer);
  const lines = [
    `**${question.question}**`,
    "",
    `You made ${score.covered.length} of ${question.keyPoints.length} key points.`,
    "",
    ...score.covered.map((k) => `- ✅ ${k.point}`),
    ...score.missed.map((k) => `- ❌ ${k.point}`),
    "",
    "<details><summary>Model answer</summary>",
    "",
    question.answer.trim(),
    "",
    "</details>",
    "",
  ];
  if (score.missed.length > 0) {
    lines.push(`Review: ${sectionLink(question)}.`, "");
  }
  return lines.join("\n");
}

/**
 * Shows {@link renderAnswerReview} for the question with `id` (or the question itself) and the learner's typed
 * `answer`. The comparison only looks for the key points' words: it tells you what an interviewer listens for,
 * not whether you are right.
 */
export function showAnswerReview(
  question: Question | string,
  answer: string,
  options: ShowOptions = {},
): void {
  const q = typeof question === "string" ? questionById(question) : question;
  showMarkdown(renderAnswerReview(q, answer), options);
}
