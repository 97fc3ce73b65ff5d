/**
 * The mock interview: N questions with topics mixed, each answered in the learner's own words against a time
 * budget, then a summary naming what to review and where (the notebook section that demonstrates each answer).
 */
import { type Random, shuffled } from "./deck.js";
import { type AnswerScore, scoreAnswer } from "./key-points.js";
import type { Question } from "./question.js";

/**
 * Picks `count` questions with topics as mixed as the pool allows: topics are visited in a shuffled order, one
 * question from each in turn, so no topic repeats before every topic has had a question.
 */
export function pickInterview(
  pool: readonly Question[],
  count: number,
  random: Random = Math.random,
): Question[] {
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`an interview needs at least 1 question, got ${count}`);
  const byTopic = new Map<string, Question[]>();
  for (const q of shuffled(pool, random)) {
    const list = byTopic.get(q.topic) ?? [];
    list.push(q);
    byTopic.set(q.topic, list);
  }
  const topics = shuffled([...byTopic.keys()], random);
  const chosen: Question[] = [];
  while (chosen.length < count && topics.some((t) => (byTopic.get(t) ?? []).length > 0)) {
    for (const topic of topics) {
      const next = byTopic.get(topic)?.shift();
      if (next && chosen.length < count) chosen.push(next);
    }
  }
  return chosen;
}

/** One answered interview question. */
export interface InterviewAnswer {
  question: Question;
  answer: string;
  seconds: number;
  score: AnswerScore;
  overTime: boolean;
}

/** Scores one typed answer, given how long it took and the budget per question (seconds). */
export function gradeInterviewAnswer(
  question: Question,
  answer: string,
  seconds: number,
  budgetSeconds: number,
): InterviewAnswer {
  return {
    question,
    answer,
    seconds,
    score: scoreAnswer(question, answer),
    overTime: seconds > budgetSeconds,
  };
}

/** Below this share of key points covered, a question goes on the review list. */
export const REVIEW_BELOW = 0.5;

/** The notebook file a question points back to, relative to the repository root. */
export function notebookPath(question: Question): string {
  return `notebooks/${question.notebook}.ipynb`;
}

/** A plain-text summary: per question, key points covered and time; then what to review, by notebook. */
export function formatInterviewSummary(answers: readonly InterviewAnswer[], budgetSeconds: number): string {
  const lines = ["", "== interview summary =="];
  let covered = 0;
  let total = 0;
  for (const [i, a] of answers.entries()) {
    covered += a.score.covered.length;
    total += a.question.keyPoints.length;
    const time = `${Math.round(a.seconds)} s${a.overTime ? ` (over the ${budgetSeconds} s budget)` : ""}`;
    lines.push(
      `${i + 1}. ${a.question.id}: ${a.score.covered.length}/${a.question.keyPoints.length} key points, ${time}`,
    );
    for (const missed of a.score.missed) lines.push(`     missed: ${missed.point}`);
  }
  lines.push(`key points covered: ${covered}/${total}`);
  const review = answers.filter((a) => a.score.ratio < REVIEW_BELOW || a.overTime);
  if (review.length === 0) {
    lines.push("nothing to review: every answer covered at least half its key points in time");
  } else {
    lines.push("review:");
    const byNotebook = new Map<string, InterviewAnswer[]>();
    for (const a of review)
      byNotebook.set(notebookPath(a.question), [...(byNotebook.get(notebookPath(a.question)) ?? []), a]);
    for (const [path, list] of byNotebook) {
      lines.push(`  ${path}`);
      for (const a of list)
        lines.push(`    section ${a.question.section}: ${a.question.id} (${a.question.topic})`);
    }
  }
  return `${lines.join("\n")}\n`;
}
