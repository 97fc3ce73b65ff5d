/**
 * Checks inside a notebook: a cell verifies what the learner just saw, the notebook counts them, and the last
 * cell reports "6/6 checks". A failing check is shown (expected, got, where to look) and recorded; it does NOT
 * throw, so the cells after it still run and the learner sees every problem at once. Only
 * {@link NotebookChecks.summary} throws, when something failed, so a headless run fails on it.
 *
 * Re-running: results are keyed by check name. Running a check cell again replaces that check's result rather
 * than counting it twice, and {@link notebookChecks} (called in the notebook's first code cell) starts a fresh
 * count, so "Run All" twice in a row reports the same N/M both times.
 */
import { type ShowOptions, showMarkdown } from "../viz/display.js";
import { runWithTimeout } from "./check.js";
import { CheckFailure } from "./expect.js";
import {
  checksLine,
  type NotebookCheckResult,
  type NotebookCheckTotals,
  renderCheckResult,
  renderSummary,
} from "./notebook-check-render.js";

/** Per-check options of {@link NotebookChecks.check}. */
export interface NotebookCheckOptions {
  /** Where the learner should look when it fails: "section 2, the cell that creates the ConfigMaps". */
  where?: string;
  /** A nudge shown with a failure: what usually causes it. */
  hint?: string;
  /** Longest the check may take, ms (default 30000); a check still pending then fails. */
  timeout?: number;
}

/** Default time limit of one notebook check. */
export const DEFAULT_NOTEBOOK_CHECK_TIMEOUT_MS = 30_000;

/** Thrown by {@link NotebookChecks.summary} when a check failed; its message lists the failures, no stack. */
export class NotebookChecksFailed extends Error {
  constructor(
    readonly totals: NotebookCheckTotals,
    readonly failures: readonly NotebookCheckResult[],
  ) {
    const lines = failures.map(
      (f) =>
        `  - ${f.name}: expected ${f.expected ?? "a pass"}, got ${f.actual ?? "a failure"}` +
        (f.where ? ` (look at ${f.where})` : ""),
    );
    super(`${checksLine(totals)}\n${lines.join("\n")}`);
    this.name = "NotebookChecksFailed";
    // tslab prints `stack`; the learner needs the list above, not Node's frames.
    this.stack = `${this.name}: ${this.message}`;
  }
}

function describeError(err: unknown): { expected?: string; actual: string } {
  if (err instanceof CheckFailure) return { expected: err.expected, actual: `${err.what}: ${err.actual}` };
  if (err instanceof Error) return { actual: `${err.name === "Error" ? "" : `${err.name}: `}${err.message}` };
  return { actual: String(err) };
}

/** The checks of one notebook run. Create it with {@link notebookChecks}. */
export class NotebookChecks {
  private readonly byName = new Map<string, NotebookCheckResult>();

  constructor(
    /** The notebook's name, e.g. `00-cluster`: shown in the summary line. */
    readonly notebook: string,
    private readonly show: ShowOptions = {},
  ) {}

  /**
   * Runs one check: `run` passes unless it throws or rejects (use the `expect*` helpers for clear messages).
   * Shows the outcome under the cell. Never throws; resolves to nothing so a notebook cell ending with a check
   * prints no stray value (read {@link NotebookChecks.results} for the outcome).
   */
  async check(name: string, run: () => unknown, options: NotebookCheckOptions = {}): Promise<void> {
    const started = Date.now();
    let result: NotebookCheckResult;
    try {
      await runWithTimeout(run, options.timeout ?? DEFAULT_NOTEBOOK_CHECK_TIMEOUT_MS);
      result = { name, status: "passed", durationMs: Date.now() - started };
    } catch (err) {
      result = { name, status: "failed", ...describeError(err), durationMs: Date.now() - started };
      if (options.where) result.where = options.where;
      if (options.hint) result.hint = options.hint;
    }
    this.record(result);
  }

  /**
   * Records a check that cannot run here, with the reason (e.g. "fault injection needs the embedded backend").
   * A skipped check counts neither as passed nor as failed.
   */
  skip(name: string, reason: string): void {
    this.record({ name, status: "skipped", hint: reason, durationMs: 0 });
  }

  /** Every result so far, in the order the checks first ran. */
  get results(): NotebookCheckResult[] {
    return [...this.byName.values()];
  }

  /** The counts so far. */
  get totals(): NotebookCheckTotals {
    const results = this.results;
    const count = (s: NotebookCheckResult["status"]) => results.filter((r) => r.status === s).length;
    const passed = count("passed");
    const failed = count("failed");
    return { notebook: this.notebook, passed, failed, skipped: count("skipped"), total: passed + failed };
  }

  /**
   * The closing cell: shows every check and prints the `checks: N/M passed` line the headless runner reads;
   * throws {@link NotebookChecksFailed} when any check failed (so the cell shows an error and a headless run
   * fails). Returns nothing, so the cell prints no stray value; {@link NotebookChecks.totals} has the counts.
   */
  summary(): void {
    const totals = this.totals;
    showMarkdown(renderSummary(totals, this.results), this.show);
    (this.show.write ?? ((text: string) => console.log(text)))(checksLine(totals));
    const failures = this.results.filter((r) => r.status === "failed");
    if (failures.length > 0) throw new NotebookChecksFailed(totals, failures);
  }

  private record(result: NotebookCheckResult): void {
    this.byName.set(result.name, result);
    showMarkdown(renderCheckResult(result), this.show);
  }
}

/**
 * Starts the checks of a notebook: call it once in the first code cell (`const checks =
 * notebookChecks("00-cluster")`). Each call returns a fresh, empty tracker, so re-running the notebook from the
 * top starts the count again.
 */
export function notebookChecks(notebook: string, show: ShowOptions = {}): NotebookChecks {
  return new NotebookChecks(notebook, show);
}
