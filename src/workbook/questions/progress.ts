/**
 * Quiz progress kept between sessions in a local file (default `.workbook/quiz-progress.json`, which git
 * ignores): for each question id, whether it was last marked known, how often it was asked, and when. A missing
 * or unreadable file means a fresh start, never a crash.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** What is remembered of one question. */
export interface QuestionProgress {
  known: boolean;
  asked: number;
  /** ISO time of the last answer. */
  last: string;
}

/** The progress file's content. */
export interface QuizProgress {
  version: 1;
  questions: Record<string, QuestionProgress>;
}

/** An empty progress record. */
export function emptyProgress(): QuizProgress {
  return { version: 1, questions: {} };
}

/** Reads `file`; a missing, unreadable or foreign file gives an empty record (and `problem` says why). */
export function loadProgress(file: string): { progress: QuizProgress; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { progress: emptyProgress() };
  }
  try {
    const parsed = JSON.parse(text) as Partial<QuizProgress>;
    if (parsed.version !== 1 || typeof parsed.questions !== "object" || parsed.questions === null) {
      throw new Error("not a version-1 progress file");
    }
    return { progress: { version: 1, questions: parsed.questions } };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { progress: emptyProgress(), problem: `ignored ${file} (${why}); starting fresh` };
  }
}

/** Writes `progress` to `file`, creating its folder. */
export function saveProgress(file: string, progress: QuizProgress): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(progress, null, 2)}\n`);
}

/** Records one answer in `progress` (mutates it). */
export function recordAnswer(
  progress: QuizProgress,
  id: string,
  known: boolean,
  now: Date = new Date(),
): void {
  const before = progress.questions[id];
  progress.questions[id] = { known, asked: (before?.asked ?? 0) + 1, last: now.toISOString() };
}
