/**
 * Grading helpers for labs: `eventually` and `consistently` (poll observed state with a deadline), the
 * `Check` / `GradeReport` model and its text report. `workbook grade` (src/cli/grade.ts) drives them.
 */
export * from "./check.js";
export * from "./consistently.js";
export * from "./eventually.js";
export { type Attempt, attempt, type Condition, type PollOptions } from "./poll.js";
export * from "./report.js";
