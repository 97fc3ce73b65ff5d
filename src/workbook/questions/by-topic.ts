/**
 * The question bank seen by topic, for the interview notebook (`12-interview-preparation`): how many questions
 * each topic has at each difficulty, and an index of every question under its topic, each linked to the notebook
 * section that demonstrates its answer. Answers stay out of it: the index is for choosing what to practise, and
 * `showQuestions` or `workbook quiz` reveal the answers.
 */
import { type ShowOptions, showMarkdown } from "../viz/display.js";
import { QUESTION_BANK } from "./bank/index.js";
import { DIFFICULTIES, type Difficulty, type Question, TOPICS, type Topic } from "./question.js";
import { sectionLink } from "./render.js";

/** One row of {@link countByTopic}: a topic and its questions per difficulty. */
export interface TopicCount {
  topic: Topic;
  basic: number;
  intermediate: number;
  advanced: number;
  total: number;
  /** The notebooks its questions point to, in bank order. */
  notebooks: string[];
}

/** Questions per topic and difficulty, topics in the order of {@link TOPICS}; topics without questions omitted. */
export function countByTopic(questions: readonly Question[] = QUESTION_BANK): TopicCount[] {
  const rows: TopicCount[] = [];
  for (const topic of Object.keys(TOPICS) as Topic[]) {
    const mine = questions.filter((q) => q.topic === topic);
    if (mine.length === 0) continue;
    const per = (d: Difficulty) => mine.filter((q) => q.difficulty === d).length;
    rows.push({
      topic,
      basic: per("basic"),
      intermediate: per("intermediate"),
      advanced: per("advanced"),
      total: mine.length,
      notebooks: [...new Set(mine.map((q) => q.notebook))],
    });
  }
  return rows;
}

/** Questions per notebook, in bank order: `[notebook, count]`. */
export function countByNotebook(questions: readonly Question[] = QUESTION_BANK): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const q of questions) counts.set(q.notebook, (counts.get(q.notebook) ?? 0) + 1);
  return [...counts.entries()];
}

/**
 * Markdown: one folded `<details>` block per topic (summary: the topic, what it is about, counts by difficulty),
 * listing each question with its difficulty and a link to its notebook section, easiest first.
 */
export function renderBankByTopic(questions: readonly Question[] = QUESTION_BANK): string {
  const blocks: string[] = [];
  for (const row of countByTopic(questions)) {
    const mine = questions
      .filter((q) => q.topic === row.topic)
      .sort((a, b) => DIFFICULTIES.indexOf(a.difficulty) - DIFFICULTIES.indexOf(b.difficulty));
    const counts = DIFFICULTIES.map((d) => `${row[d]} ${d}`).join(", ");
    blocks.push(
      [
        `<details><summary><b>${row.topic}</b>: ${TOPICS[row.topic]} (${row.total}: ${counts})</summary>`,
        "",
        ...mine.map((q) => `- ${q.question} _(${q.difficulty})_: ${sectionLink(q)}`),
        "",
        "</details>",
        "",
      ].join("\n"),
    );
  }
  return blocks.join("\n");
}

/** Shows {@link renderBankByTopic} for the whole bank (or `questions`) in a notebook. */
export function showBankByTopic(
  questions: readonly Question[] = QUESTION_BANK,
  options: ShowOptions = {},
): void {
  showMarkdown(renderBankByTopic(questions), options);
}
