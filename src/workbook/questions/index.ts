/**
 * The question bank and the quiz logic: typed interview questions tied to the notebook sections that answer
 * them (`QUESTION_BANK`, `selectQuestions`), the notebook renderers (`showQuestions`, `showTryIt`), and the
 * pieces `workbook quiz` is built from (deck, progress file, key-point scoring, mock interview).
 */
export * from "./bank/index.js";
export * from "./by-topic.js";
export * from "./deck.js";
export * from "./interview.js";
export * from "./key-points.js";
export * from "./progress.js";
export * from "./question.js";
export * from "./render.js";
export * from "./review.js";
export * from "./select.js";
export * from "./try-it.js";
