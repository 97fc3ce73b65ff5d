/**
 * `workbook quiz` (npm run quiz): the question bank in the terminal.
 *
 * - default: an interactive quiz in random order; Enter reveals the model answer, then y/n marks it known or
 *   unknown; unknown questions come back in later rounds until none is left. Progress (what is known) is kept in
 *   `.workbook/quiz-progress.json` (not committed), so the next session skips what you already know.
 * - `--list`: one line per question. `--read`: every question with its answer, no input needed.
 * - `--interview N`: a timed mock interview of N questions with mixed topics; type your answer (an empty line
 *   ends it), see which key points it covered, and get a summary of what to review with links to the notebooks.
 * - filters: `--topic T`, `--notebook N`, `--difficulty D`; `--all` includes known questions, `--reset` forgets
 *   progress, `--seed N` makes the order reproducible.
 *
 * Input is read line by line from any stream (no TTY needed), so tests drive it through a PassThrough.
 */
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { parseArgs } from "node:util";
import { seededRandom } from "../../apimachinery/wait/random.js";
import { QUESTION_BANK } from "../../workbook/questions/bank/index.js";
import { QuizDeck, type Random } from "../../workbook/questions/deck.js";
import {
  formatInterviewSummary,
  gradeInterviewAnswer,
  type InterviewAnswer,
  notebookPath,
  pickInterview,
} from "../../workbook/questions/interview.js";
import {
  loadProgress,
  type QuizProgress,
  recordAnswer,
  saveProgress,
} from "../../workbook/questions/progress.js";
import {
  DIFFICULTIES,
  type Difficulty,
  type Question,
  TOPICS,
  type Topic,
} from "../../workbook/questions/question.js";
import { type QuestionFilter, selectQuestions } from "../../workbook/questions/select.js";
import { LineReader } from "./line-reader.js";
import { usageError } from "./usage-error.js";
import { workbookPaths } from "./workbook-paths.js";

/** Where the quiz reads and writes; the CLI uses the process's streams, tests pass their own. */
export interface QuizIo {
  input: Readable;
  output: Writable;
  /** The progress file (default `.workbook/quiz-progress.json` in the project). */
  progressFile: string;
  /** Milliseconds now, for the interview's timing (default `Date.now`). */
  now?: () => number;
}

/** Parsed `workbook quiz` arguments. */
export interface QuizArgs {
  mode: "quiz" | "list" | "read" | "interview";
  filter: QuestionFilter;
  interviewCount: number;
  secondsPerQuestion: number;
  all: boolean;
  reset: boolean;
  random: Random;
  progressFile?: string;
}

/** Default time budget per interview question, seconds. */
export const DEFAULT_SECONDS_PER_QUESTION = 120;

function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1)
    throw usageError(`workbook quiz: ${flag} needs a whole number >= 1, got "${value}"`);
  return n;
}

/** Parses and validates the command line; bad flags or values throw a usage error (exit 2). */
export function parseQuizArgs(args: string[]): QuizArgs {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      list: { type: "boolean" },
      read: { type: "boolean" },
      interview: { type: "string" },
      seconds: { type: "string" },
      topic: { type: "string" },
      notebook: { type: "string" },
      difficulty: { type: "string" },
      all: { type: "boolean" },
      reset: { type: "boolean" },
      seed: { type: "string" },
      progress: { type: "string" },
    },
  });
  const modes = [values.list && "list", values.read && "read", values.interview !== undefined && "interview"];
  const chosen = modes.filter((m): m is string => Boolean(m));
  if (chosen.length > 1)
    throw usageError(`workbook quiz: choose one of --list, --read, --interview (got ${chosen.join(", ")})`);
  const filter: QuestionFilter = {};
  if (values.topic !== undefined) {
    if (!(values.topic in TOPICS)) {
      throw usageError(
        `workbook quiz: unknown topic "${values.topic}"; topics: ${Object.keys(TOPICS).join(", ")}`,
      );
    }
    filter.topic = values.topic as Topic;
  }
  if (values.difficulty !== undefined) {
    if (!DIFFICULTIES.includes(values.difficulty as Difficulty)) {
      throw usageError(
        `workbook quiz: unknown difficulty "${values.difficulty}"; use ${DIFFICULTIES.join(", ")}`,
      );
    }
    filter.difficulty = values.difficulty as Difficulty;
  }
  if (values.notebook !== undefined) {
    filter.notebook = values.notebook.replace(/\.ipynb$/, "").replace(/^.*\//, "");
    if (selectQuestions({ notebook: filter.notebook }).length === 0) {
      const notebooks = [...new Set(QUESTION_BANK.map((q) => q.notebook))].join(", ");
      throw usageError(
        `workbook quiz: no questions for notebook "${values.notebook}"; notebooks: ${notebooks}`,
      );
    }
  }
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed))
    throw usageError(`workbook quiz: --seed needs an integer, got "${values.seed}"`);
  const parsed: QuizArgs = {
    mode: (chosen[0] as QuizArgs["mode"] | undefined) ?? "quiz",
    filter,
    interviewCount: values.interview === undefined ? 0 : positiveInteger("--interview", values.interview),
    secondsPerQuestion:
      values.seconds === undefined
        ? DEFAULT_SECONDS_PER_QUESTION
        : positiveInteger("--seconds", values.seconds),
    all: values.all ?? false,
    reset: values.reset ?? false,
    random: seed === undefined ? Math.random : seededRandom(seed),
  };
  if (values.progress !== undefined) parsed.progressFile = values.progress;
  return parsed;
}

/** The one-line form of a question used by `--list`. */
export function listLine(q: Question): string {
  return `${q.id.padEnd(28)} ${q.topic.padEnd(15)} ${q.difficulty.padEnd(12)} ${q.question}`;
}

/** A question with its answer, for `--read` and after a reveal. */
function answerText(q: Question): string {
  const points = q.keyPoints.map((k) => `  - ${k.point}`).join("\n");
  return `${q.answer.trim()}\n\nkey points:\n${points}\nsee: ${notebookPath(q)}, section ${q.section}\n`;
}

function header(q: Question, position: string): string {
  return `\n[${position}] ${q.id} · ${q.topic} · ${q.difficulty}\n${q.question}\n`;
}

/** Runs the quiz with `io`; resolves with the exit code. */
export async function runQuiz(args: string[], io: QuizIo): Promise<number> {
  const parsed = parseQuizArgs(args);
  const write = (text: string) => io.output.write(text);
  const pool = selectQuestions(parsed.filter);
  if (pool.length === 0) {
    write("quiz: no question matches these filters\n");
    return 1;
  }
  if (parsed.mode === "list") {
    for (const q of pool) write(`${listLine(q)}\n`);
    write(`${pool.length} questions\n`);
    return 0;
  }
  if (parsed.mode === "read") {
    for (const [i, q] of pool.entries()) write(`${header(q, `${i + 1}/${pool.length}`)}\n${answerText(q)}`);
    return 0;
  }
  const reader = new LineReader(io.input);
  try {
    if (parsed.mode === "interview") return await interview(parsed, pool, reader, io);
    return await quiz(parsed, pool, reader, io);
  } finally {
    reader.close();
  }
}

async function quiz(parsed: QuizArgs, pool: Question[], reader: LineReader, io: QuizIo): Promise<number> {
  const write = (text: string) => io.output.write(text);
  const file = parsed.progressFile ?? io.progressFile;
  const loaded = parsed.reset
    ? { progress: { version: 1, questions: {} } as QuizProgress }
    : loadProgress(file);
  if (loaded.problem) write(`quiz: ${loaded.problem}\n`);
  const progress = loaded.progress;
  const known = pool.filter((q) => progress.questions[q.id]?.known);
  const todo = parsed.all ? pool : pool.filter((q) => !progress.questions[q.id]?.known);
  if (todo.length === 0) {
    write(
      `quiz: all ${pool.length} selected questions are marked known (--all asks them again, --reset forgets)\n`,
    );
    return 0;
  }
  write(
    `quiz: ${todo.length} questions${parsed.all ? "" : ` (${known.length} already known)`}; ` +
      "Enter shows the answer, then y = knew it, n = ask again later, q = quit\n",
  );
  const deck = new QuizDeck(todo, parsed.random);
  let asked = 0;
  for (let q = deck.next(); q; q = deck.next()) {
    asked++;
    write(header(q, `round ${deck.round}, ${deck.left} left`));
    write("(Enter: show the answer, q: quit) ");
    const reveal = await reader.next();
    if (reveal === null || reveal.trim().toLowerCase() === "q") return stop(write, file, progress, deck.left);
    write(`\n${answerText(q)}`);
    let mark: boolean | undefined;
    while (mark === undefined) {
      write("did you know it? (y/n/q) ");
      const line = await reader.next();
      const reply = line?.trim().toLowerCase();
      if (line === null || reply === "q") return stop(write, file, progress, deck.left);
      if (reply === "y" || reply === "yes") mark = true;
      else if (reply === "n" || reply === "no") mark = false;
      else write("please answer y, n or q\n");
    }
    deck.mark(mark);
    recordAnswer(progress, q.id, mark);
    saveProgress(file, progress);
  }
  write(`\nquiz: done, every question known (${asked} asked); progress saved in ${file}\n`);
  return 0;
}

function stop(write: (t: string) => void, file: string, progress: QuizProgress, left: number): number {
  saveProgress(file, progress);
  write(`\nquiz: stopped with ${left} not yet known; progress saved in ${file}\n`);
  return 0;
}

async function interview(
  parsed: QuizArgs,
  pool: Question[],
  reader: LineReader,
  io: QuizIo,
): Promise<number> {
  const write = (text: string) => io.output.write(text);
  const now = io.now ?? Date.now;
  const budget = parsed.secondsPerQuestion;
  const questions = pickInterview(pool, parsed.interviewCount, parsed.random);
  write(
    `interview: ${questions.length} questions, about ${budget} s each. Answer in your own words; ` +
      "an empty line ends an answer (an empty first line passes).\n",
  );
  const answers: InterviewAnswer[] = [];
  for (const [i, q] of questions.entries()) {
    write(header(q, `${i + 1}/${questions.length}`));
    write("> ");
    const started = now();
    const lines: string[] = [];
    let ended = false;
    for (;;) {
      const line = await reader.next();
      if (line === null) {
        ended = true;
        break;
      }
      if (line.trim() === "") break;
      lines.push(line);
    }
    const graded = gradeInterviewAnswer(q, lines.join("\n"), (now() - started) / 1000, budget);
    answers.push(graded);
    write(
      `\nyou covered ${graded.score.covered.length}/${q.keyPoints.length} key points in ${Math.round(graded.seconds)} s` +
        `${graded.overTime ? " (over time)" : ""}\n`,
    );
    for (const p of graded.score.missed) write(`  missed: ${p.point}\n`);
    write(`\nmodel answer:\n${answerText(q)}`);
    if (ended && i < questions.length - 1) {
      write("\ninterview: input ended early\n");
      break;
    }
  }
  write(formatInterviewSummary(answers, budget));
  return 0;
}

/** `workbook quiz`: the quiz on this process's stdin/stdout, progress in `.workbook/quiz-progress.json`. */
export function run(args: string[]): Promise<number> {
  const progressFile = join(workbookPaths().root, ".workbook", "quiz-progress.json");
  return runQuiz(args, { input: process.stdin, output: process.stdout, progressFile });
}
