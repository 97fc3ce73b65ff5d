/**
 * Grading one lab with every check isolated: the checks run in a worker process (src/tools/cli/grade-worker.ts), and
 * this supervisor arms a timer for each check as it starts. A check that does not report in time (a synchronous
 * `while (true)`, a loop of microtasks, a hang the worker's own timeout cannot interrupt) gets its worker killed
 * and is failed; a new worker resumes with the next check. A worker that crashes or exits fails the check it was
 * running, the same way. So one bad check never stops the grade, and the report always has every requirement.
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CheckResult, countResults, type GradeReport } from "../../workbook/grading/check.js";
import type { CheckInfo, WorkerMessage } from "./grade-protocol.js";

/** Time a worker gets past a check's own timeout before it is killed (its own timeout should fire first). */
export const KILL_GRACE_MS = 2_000;

/** Time to load a grader and list its checks (starting a cluster included) before the lab counts as broken. */
export const LOAD_TIMEOUT_MS = 120_000;

/** Time a worker may take between one check's result and the next check's start, or to tear down. */
export const BETWEEN_CHECKS_MS = 30_000;

/** Options of {@link superviseLab}. */
export interface SuperviseOptions {
  /** Where the worker's own output (the learner's console.log) goes; default: this process's stderr. */
  output?: NodeJS.WritableStream;
  /** Extra ms after a check's timeout before the worker is killed (default {@link KILL_GRACE_MS}). */
  graceMs?: number;
  /** Environment of the worker processes (default: this process's); a grading run's shared cluster sets it. */
  env?: NodeJS.ProcessEnv;
}

/** What happened to one worker process. */
type WorkerOutcome =
  | { kind: "done" }
  | { kind: "load-error"; message: string }
  | { kind: "restart" }
  | { kind: "stopped"; index: number | undefined; reason: string };

function failed(info: CheckInfo, message: string, durationMs: number): CheckResult {
  const result: CheckResult = { requirement: info.requirement, passed: false, message, durationMs };
  if (info.hint !== undefined) result.hint = info.hint;
  return result;
}

/**
 * Grades the lab whose grader is `graderFile` against the implementation in `dir`, each check supervised as
 * described above. `lab` names the report (the grader's title is appended when it has one).
 */
export async function superviseLab(
  lab: string,
  graderFile: string,
  dir: string,
  options: SuperviseOptions = {},
): Promise<GradeReport> {
  const workerPath = new URL("./grade-worker.js", import.meta.url);
  const output = options.output ?? process.stderr;
  const grace = options.graceMs ?? KILL_GRACE_MS;
  let checks: CheckInfo[] | undefined;
  let title = lab;
  const results: Array<CheckResult | undefined> = [];

  const runWorker = (from: number): Promise<WorkerOutcome> =>
    new Promise((resolve) => {
      const child: ChildProcess = fork(workerPath, [graderFile, dir, String(from)], {
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        serialization: "json",
        env: options.env ?? process.env,
      });
      child.stdout?.pipe(output, { end: false });
      child.stderr?.pipe(output, { end: false });
      let current: number | undefined;
      let startedAt = Date.now();
      let timer: NodeJS.Timeout | undefined;
      let outcome: WorkerOutcome | undefined;
      const arm = (ms: number, reason: string) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          outcome = { kind: "stopped", index: current, reason };
          child.kill("SIGKILL");
        }, ms);
      };
      arm(LOAD_TIMEOUT_MS, `the grader did not list its checks within ${LOAD_TIMEOUT_MS} ms`);
      child.on("message", (raw) => {
        const message = raw as WorkerMessage;
        if (message.type === "checks") {
          checks ??= message.checks;
          if (message.title) title = `${lab}: ${message.title}`;
          clearTimeout(timer);
        } else if (message.type === "load-error") {
          outcome = { kind: "load-error", message: message.message };
        } else if (message.type === "start") {
          current = message.index;
          startedAt = Date.now();
          const limit = checks?.[message.index]?.timeout ?? 0;
          arm(
            limit + grace,
            `did not finish within ${limit} ms; the grader stopped it (an endless loop or a hang?)`,
          );
        } else if (message.type === "result") {
          results[message.index] = message.result;
          current = undefined;
          // Between checks (and in the grader's teardown) nothing should take long either.
          arm(BETWEEN_CHECKS_MS, `the grader did not go on within ${BETWEEN_CHECKS_MS} ms after a check`);
          if (message.restart) outcome = { kind: "restart" };
        } else if (message.type === "crash") {
          outcome = { kind: "stopped", index: current, reason: `the lab's code crashed: ${message.message}` };
        } else if (message.type === "done") {
          outcome = { kind: "done" };
        }
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        if (current !== undefined && outcome?.kind === "stopped" && outcome.index === undefined) {
          outcome = { ...outcome, index: current };
        }
        const elapsed = Date.now() - startedAt;
        if (outcome?.kind === "stopped" && outcome.index !== undefined && checks?.[outcome.index]) {
          results[outcome.index] = failed(checks[outcome.index]!, outcome.reason, elapsed);
        } else if (!outcome && current !== undefined && checks?.[current]) {
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          results[current] = failed(checks[current]!, `the lab's process ${how} during this check`, elapsed);
          outcome = { kind: "stopped", index: current, reason: how };
        }
        resolve(
          outcome ?? { kind: "stopped", index: undefined, reason: `the grader exited with code ${code}` },
        );
      });
    });

  const firstMissing = () => (checks ?? []).findIndex((_, i) => results[i] === undefined);
  let from = 0;
  for (;;) {
    const before = results.filter(Boolean).length;
    const outcome = await runWorker(from);
    if (outcome.kind === "load-error" || !checks) {
      const message = outcome.kind === "load-error" ? outcome.message : describeOutcome(outcome);
      return brokenLab(
        lab,
        "the lab's code loads",
        message,
        existsSync(join(dir, "go.mod"))
          ? "the Go program must build (go build runs in the lab's go/ folder, with labs/go-kit): fix what it printed"
          : "the lab's code must import without throwing; `npm run typecheck` shows type errors",
      );
    }
    from = firstMissing();
    if (outcome.kind === "done" || from < 0) break;
    // A worker that died before finishing any check would die again the same way: fail that check and go on.
    if (results.filter(Boolean).length === before) {
      results[from] = failed(checks[from]!, describeOutcome(outcome), 0);
      from = firstMissing();
      if (from < 0) break;
    }
  }
  const final = (checks ?? []).map((info, i) => {
    const result = results[i] ?? failed(info, "the check never ran", 0);
    return info.tally === undefined ? result : { ...result, tally: info.tally };
  });
  return { lab: title, results: final, ...countResults(final) };
}

function describeOutcome(outcome: WorkerOutcome): string {
  if (outcome.kind === "stopped") return outcome.reason;
  if (outcome.kind === "load-error") return outcome.message;
  return `the worker ended (${outcome.kind}) without reporting`;
}

/** A report with a single failed requirement, for a lab that cannot even be graded. */
export function brokenLab(lab: string, requirement: string, message: string, hint: string): GradeReport {
  return {
    lab,
    passed: 0,
    failed: 1,
    results: [{ requirement, passed: false, message, hint, durationMs: 0 }],
  };
}
