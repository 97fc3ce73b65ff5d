/**
 * Messages between `workbook grade` and the worker process that runs one lab's checks (src/tools/cli/grade-worker.ts).
 * The worker announces the lab's checks, then each check as it starts and its result as it ends, so the parent
 * always knows which check is running and can stop the worker when one never ends.
 */
import type { CheckResult } from "../../workbook/grading/check.js";

/** What the worker says about one check before running any. */
export interface CheckInfo {
  requirement: string;
  hint?: string;
  timeout: number;
  tally?: string;
}

/** Worker to parent. */
export type WorkerMessage =
  | { type: "checks"; title?: string; checks: CheckInfo[] }
  | { type: "load-error"; message: string }
  | { type: "start"; index: number }
  | { type: "result"; index: number; result: CheckResult; restart: boolean }
  | { type: "crash"; message: string }
  | { type: "done" };

/** Command-line arguments of the worker: grader file, lab folder, first check to run. */
export interface WorkerArgs {
  graderFile: string;
  dir: string;
  from: number;
}
