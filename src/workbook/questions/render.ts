/**
 * Questions in a notebook: each question as a heading-like line with its difficulty and topic, and the model
 * answer folded in a `<details>` block the learner opens on demand. Every rendered question carries an HTML
 * comment `<!-- question: ID -->` (invisible when rendered) so a test can read from an executed notebook which
 * questions it showed.
 */
import { type ShowOptions, showMarkdown } from "../viz/display.js";
import type { Question } from "./question.js";
import { type QuestionFilter, selectQuestions } from "./select.js";

/** The marker before each rendered question; the consistency test reads the ids back from it. */
export const QUESTION_MARKER = /<!-- question: ([A-Za-z0-9._-]+) -->/g;

/** A section title as its heading renders: inline code and bold markers removed (`` `x` `` and `**x**` read x). */
export function renderedSectionTitle(section: string): string {
  return section.replace(/`|\*\*/g, "").trim();
}

/**
 * A markdown link to the notebook section that demonstrates `question`, relative to the notebooks folder:
 * JupyterLab opens the notebook at the heading (its anchor is the rendered heading text with spaces as dashes).
 */
export function sectionLink(question: Question): string {
  const anchor = renderedSectionTitle(question.section).replace(/ /g, "-");
  return `[${question.notebook}, section ${question.section}](${question.notebook}.ipynb#${encodeURI(anchor)})`;
}

/** Markdown for one question: the question, then the answer and key points folded away. */
export function renderQuestion(question: Question, number: number): string {
  const points = question.keyPoints.map((k) => `- ${k.point}`).join("\n");
  return [
    `<!-- question: ${question.id} -->`,
    `**Q${number}. ${question.question}** _(${question.difficulty} · ${question.topic})_`,
    "",
    "<details><summary>Model answer (try yours first)</summary>",
    "",
    question.answer.trim(),
    "",
    "**Key points an interviewer listens for:**",
    "",
    points,
    "",
    `_Shown in: ${sectionLink(question)}._`,
    "",
    "</details>",
    "",
  ].join("\n");
}

/**
 * Markdown for questions numbered from `first`, a rule between them: a folded answer has no margin of its own,
 * so without it the next question sits flush against the "Model answer" line.
 */
export function renderQuestionList(questions: readonly Question[], first = 1): string {
  return questions.map((q, i) => renderQuestion(q, first + i)).join("\n---\n\n");
}

/** Markdown for a list of questions under a heading. */
export function renderQuestions(questions: readonly Question[], heading = "Questions"): string {
  return `### ${heading}\n\n${renderQuestionList(questions)}`;
}

/** Options of {@link showQuestions}: a filter within the notebook, a heading, and where to show. */
export interface ShowQuestionsOptions extends ShowOptions {
  /** Only the questions of this section (title or leading number). */
  section?: string;
  /** Only these ids (in bank order). */
  ids?: readonly string[];
  /** Heading above the list (default "Questions"). */
  heading?: string;
}

/**
 * Shows the bank's questions for `notebook` (optionally one section, or given ids), answers folded away.
 * Pass string literals: the consistency test reads these calls from the notebook's source. Throws when the
 * selection is empty, so a misspelt notebook or section is caught at once. Returns nothing (a notebook cell
 * ending with it prints no stray value); `selectQuestions` gives the same list as data.
 */
export function showQuestions(notebook: string, options: ShowQuestionsOptions = {}): void {
  const filter: QuestionFilter = { notebook };
  if (options.section !== undefined) filter.section = options.section;
  if (options.ids !== undefined) filter.ids = options.ids;
  const chosen = selectQuestions(filter);
  if (chosen.length === 0) {
    const where = options.section ? ` section "${options.section}"` : "";
    throw new Error(
      `showQuestions: the bank has no questions for ${notebook}${where} (src/workbook/questions/bank/)`,
    );
  }
  // A few questions per output: one output holding a dozen questions is taller than a screen, and a learner
  // scrolls past it (the browser test's limit is 1200 px per output).
  for (let start = 0; start < chosen.length; start += QUESTIONS_PER_OUTPUT) {
    const group = chosen.slice(start, start + QUESTIONS_PER_OUTPUT);
    const body = renderQuestionList(group, start + 1);
    // Later outputs open with the rule that separates questions, as they do inside one output.
    showMarkdown(
      start === 0 ? `### ${options.heading ?? "Questions"}\n\n${body}` : `---\n\n${body}`,
      options,
    );
  }
}

/** How many questions one output of {@link showQuestions} holds. */
export const QUESTIONS_PER_OUTPUT = 5;
