/**
 * The grading model. A lab is graded by a list of {@link Check}s, one per requirement a learner can read
 * ("deleting the parent deletes its children"); each check passes or fails on its own, with a hint when it
 * fails, so the report is a list of bullets rather than a stack trace.
 */
import type { Clock } from "../../clock/clock.js";
import { realClock } from "../../clock/clock.js";

/** One requirement of a lab. `run` throws (or rejects) to fail; the error message is shown to the learner. */
export interface Check {
  /** The requirement, phrased as the behaviour expected: "the reconciler sets observedGeneration". */
  requirement: string;
  /** Shown when the check fails: where to look, not the answer. */
  hint?: string;
  /** Longest the check may take, ms (default {@link DEFAULT_CHECK_TIMEOUT_MS}); a hanging check fails. */
  timeout?: number;
  /**
   * Requirements of earlier checks this one builds on (exact texts). When one of them failed, this check is
   * not run: it fails at once with one line naming that requirement, so a single root cause is reported once
   * instead of being waited for again by every check that repeats its first step.
   */
  needs?: readonly string[];
  /**
   * Set when the requirement cannot be checked on the track being graded (a fake-clock trial has no Go
   * equivalent): why, in one line. The check is not run; its result counts neither as met nor as not met.
   */
  notApplicable?: string;
  /**
   * A label that groups requirements into a count the report prints under the score, `N/M <tally>` over the
   * checks that share it (lab 13 counts its mutants: "7/8 mutants caught").
   */
  tally?: string;
  run(): void | Promise<void>;
}

/** The outcome of one {@link Check}. */
export interface CheckResult {
  requirement: string;
  passed: boolean;
  /** Why it failed (the error message); absent when it passed. */
  message?: string;
  hint?: string;
  durationMs: number;
  /** True when the check was not run because a requirement it {@link Check.needs} failed. */
  skipped?: boolean;
  /** Why the requirement was not checked on this track ({@link Check.notApplicable}); `passed` is false. */
  notApplicable?: string;
  /** The check's {@link Check.tally}, when it has one. */
  tally?: string;
}

/** The result of a check that does not apply to the track being graded, else undefined. */
export function notApplicableResult(check: Check): CheckResult | undefined {
  if (check.notApplicable === undefined) return undefined;
  return { requirement: check.requirement, passed: false, notApplicable: check.notApplicable, durationMs: 0 };
}

/** Requirements met and not met among `results` (one that does not apply to the track is neither). */
export function countResults(results: readonly CheckResult[]): { passed: number; failed: number } {
  const passed = results.filter((r) => r.passed).length;
  const failed = results.filter((r) => !r.passed && r.notApplicable === undefined).length;
  return { passed, failed };
}

/**
 * The result of `check` without running it when a requirement it needs failed among `earlier` (the results
 * so far, in order), else undefined. The message names the first unmet requirement; no hint is repeated.
 */
export function skippedForUnmetNeed(check: Check, earlier: readonly CheckResult[]): CheckResult | undefined {
  const unmet = (check.needs ?? []).find((need) => earlier.some((r) => r.requirement === need && !r.passed));
  if (unmet === undefined) return undefined;
  return {
    requirement: check.requirement,
    passed: false,
    skipped: true,
    message: `not checked: it builds on "${unmet}", which is not met yet (fix that first)`,
    durationMs: 0,
  };
}

/** Every check of one lab, in order, with the totals. */
export interface GradeReport {
  lab: string;
  results: CheckResult[];
  passed: number;
  failed: number;
}

/** Default per-check time limit. */
export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

/**
 * A lab's grader: its title and the checks for one implementation folder (a lab or its solution).
 * `workbook grade` runs the checks in a worker process that may be restarted after a check hangs (it then calls
 * `checks(dir)` again and resumes with the next check), so `checks` must return the same list every time.
 */
export interface LabGrader {
  title?: string;
  checks(dir: string): Check[] | Promise<Check[]>;
  /** Stops what `checks` started (a cluster, timers); called after the last check the worker runs. */
  teardown?(): void | Promise<void>;
}

/** Declares a grader with type checking: `export default defineLab({ checks: (dir) => [...] })`. */
export function defineLab(grader: LabGrader): LabGrader {
  return grader;
}

/**
 * Runs `run` and settles with it, or rejects with "did not finish within `limit` ms" when it takes longer (on
 * `clock`). An async hang is cut off this way; a synchronous infinite loop is not (nothing else runs), which is
 * why `workbook grade` also supervises each lab from another process.
 */
export function runWithTimeout(run: () => unknown, limit: number, clock: Clock = realClock): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = clock.setTimer(limit, () => reject(new Error(`did not finish within ${limit} ms`)));
    Promise.resolve()
      .then(run)
      .then(
        () => {
          timer.stop();
          resolve();
        },
        (err: unknown) => {
          timer.stop();
          reject(err);
        },
      );
  });
}

/**
 * Runs `checks` one after another (labs share one cluster namespace, so checks never overlap) and collects a
 * {@link GradeReport}. A failing or hanging check never stops the ones after it.
 */
export async function runChecks(
  lab: string,
  checks: readonly Check[],
  clock: Clock = realClock,
): Promise<GradeReport> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const notApplicable = notApplicableResult(check);
    if (notApplicable) {
      results.push(notApplicable);
      continue;
    }
    const skipped = skippedForUnmetNeed(check, results);
    if (skipped) {
      results.push(skipped);
      continue;
    }
    const started = clock.now();
    try {
      await runWithTimeout(() => check.run(), check.timeout ?? DEFAULT_CHECK_TIMEOUT_MS, clock);
      results.push({ requirement: check.requirement, passed: true, durationMs: clock.now() - started });
    } catch (err) {
      results.push({
        requirement: check.requirement,
        passed: false,
        message: err instanceof Error ? err.message : String(err),
        hint: check.hint,
        durationMs: clock.now() - started,
      });
    }
  }
  checks.forEach((check, i) => {
    const result = results[i];
    if (check.tally !== undefined && result) result.tally = check.tally;
  });
  return { lab, results, ...countResults(results) };
}
