/**
 * `workbook notebooks [notebook.ipynb ...] [--timeout seconds] [--output-dir dir] [--twice]`: executes notebooks
 * headless (default: every notebooks/*.ipynb, in name order) under the project's tslab kernel with nbclient,
 * through src/tools/cli/notebook_runner.py. Exits 1 if any cell raised, printed an error output or timed out, or a
 * notebook's checks summary reported a failed check, naming the notebook and cell; prints each notebook's check
 * count and closes with a table of per-notebook times. `--twice` runs all cells twice in one kernel (Run All
 * twice in a row). The notebooks themselves are never rewritten (executed copies only go to --output-dir).
 * Honours `WORKBOOK_CLUSTER` (default `embedded`): the kernel inherits it.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { exitCode, notebookEnv, notebooksReady } from "./notebook-env.js";
import { type WorkbookPaths, workbookPaths } from "./workbook-paths.js";

/** Parsed arguments of `workbook notebooks`. */
export interface NotebooksArgs {
  notebooks: string[];
  timeoutSeconds: number;
  outputDir?: string;
  /** Run all cells twice in the same kernel. */
  twice: boolean;
}

/** Default per-cell timeout: generous for a 2-core machine, far below CI's limit. */
export const DEFAULT_CELL_TIMEOUT_SECONDS = 120;

/** Parses the command line; throws a clear error on an unknown flag or a bad timeout. */
export function parseNotebooksArgs(args: string[], paths: WorkbookPaths): NotebooksArgs {
  const notebooks: string[] = [];
  let timeoutSeconds = Number(process.env.WORKBOOK_CELL_TIMEOUT ?? DEFAULT_CELL_TIMEOUT_SECONDS);
  let outputDir: string | undefined;
  let twice = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--timeout") timeoutSeconds = Number(args[++i]);
    else if (arg === "--output-dir") outputDir = args[++i];
    else if (arg === "--twice") twice = true;
    else if (arg.startsWith("--")) throw new Error(`workbook notebooks: unknown option ${arg}`);
    else notebooks.push(resolve(arg));
  }
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new Error(
      "workbook notebooks: --timeout (or WORKBOOK_CELL_TIMEOUT) must be a positive whole number of seconds",
    );
  }
  if (outputDir !== undefined) outputDir = resolve(outputDir);
  if (notebooks.length === 0) notebooks.push(...listNotebooks(paths.notebooks));
  return { notebooks, timeoutSeconds, outputDir, twice };
}

/** Every `*.ipynb` directly in `dir`, sorted by name (NN-topic order). */
export function listNotebooks(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ipynb"))
    .sort()
    .map((f) => join(dir, f));
}

/** Runs the notebooks (see the module comment); resolves with the exit code: 0 all clean, 1 otherwise. */
export async function run(args: string[]): Promise<number> {
  const paths = workbookPaths();
  if (!notebooksReady(paths, "workbook notebooks: cannot run notebooks yet")) return 1;
  const parsed = parseNotebooksArgs(args, paths);
  if (parsed.notebooks.length === 0) {
    process.stdout.write("workbook notebooks: no notebooks found\n");
    return 0;
  }
  const runnerArgs = [paths.notebookRunner, "--kernel", "tslab", "--timeout", String(parsed.timeoutSeconds)];
  if (parsed.outputDir) runnerArgs.push("--output-dir", parsed.outputDir);
  if (parsed.twice) runnerArgs.push("--twice");
  runnerArgs.push(...parsed.notebooks);
  const env = notebookEnv(paths);
  process.stdout.write(`workbook notebooks: WORKBOOK_CLUSTER=${env.WORKBOOK_CLUSTER}\n`);
  const child = spawn(paths.venvPython, runnerArgs, {
    cwd: paths.root,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  return exitCode(child, "workbook notebooks");
}
