/**
 * Grading: lab checks (`Check`, `runChecks`, `defineLab`, the text and JSON reports) and the checks a notebook
 * runs on itself (`notebookChecks`, the `expect*` helpers); `eventually` and `consistently` poll observed state
 * with a deadline. `workbook grade` (src/tools/cli/grade.ts) drives the lab checks; the ten lab graders that use
 * them live beside this folder, in src/workbook/graders/.
 */
export * from "./check.js";
export * from "./consistently.js";
export * from "./eventually.js";
export * from "./expect.js";
export * from "./grade-in-notebook.js";
export * from "./notebook-check-render.js";
export * from "./notebook-checks.js";
export { type Attempt, attempt, type Condition, type PollOptions } from "./poll.js";
export * from "./report.js";
