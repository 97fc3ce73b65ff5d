/**
 * What `workbook lab` and `workbook notebooks` both need before starting Jupyter: a check that setup has been
 * done (with the exact fix when it has not), and the environment the kernel inherits.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { findPython, type PythonProbe } from "./setup.js";
import type { WorkbookPaths } from "./workbook-paths.js";

/**
 * Returns what is missing for notebooks to run, as sentences that say how to fix it; empty when ready.
 * Order matters: the first problem is the one to fix first. Without .venv, `python` (default: setup's
 * `findPython`) tells whether Python itself is missing, which needs an install before setup can help.
 */
export function notebookProblems(paths: WorkbookPaths, python: () => PythonProbe = findPython): string[] {
  const problems: string[] = [];
  if (!existsSync(paths.venvPython)) {
    const probe = python();
    problems.push(
      "missing" in probe
        ? `The Python environment .venv is missing, and Python cannot make one: ${probe.missing}. Then run \`npm run setup\`.`
        : `The Python environment .venv is missing. Run \`npm run setup\` (it creates .venv with ${probe.command} ${probe.version} and installs JupyterLab).`,
    );
  } else if (!existsSync(join(paths.kernelDir, "kernel.json"))) {
    problems.push("The tslab kernel is not registered in .venv. Run `npm run setup`.");
  }
  if (!existsSync(paths.tslabBin)) problems.push("tslab is not installed. Run `npm install`.");
  if (!existsSync(join(paths.root, "dist", "index.js"))) {
    problems.push("The package is not built (dist/index.js is missing). Run `npm run build`.");
  }
  if (!existsSync(join(paths.packageLink, "package.json"))) {
    problems.push(
      "node_modules/kube-controller-workbook is missing, so notebooks cannot import the package. Run `npm run setup`.",
    );
  }
  return problems;
}

/**
 * The environment Jupyter and its kernels run with: the caller's, plus `WORKBOOK_CLUSTER` (default `embedded`)
 * and the venv's share/jupyter first on `JUPYTER_PATH`, so the project's tslab kernelspec wins over any
 * kernel of the same name installed globally. Runtime files (connection files, cookie secret) stay in the venv.
 */
export function notebookEnv(paths: WorkbookPaths, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const jupyterPath = [join(paths.venv, "share", "jupyter"), base.JUPYTER_PATH]
    .filter(Boolean)
    .join(delimiter);
  return {
    ...base,
    WORKBOOK_CLUSTER: base.WORKBOOK_CLUSTER || "embedded",
    JUPYTER_PATH: jupyterPath,
    JUPYTER_RUNTIME_DIR: base.JUPYTER_RUNTIME_DIR || join(paths.venv, "share", "jupyter", "runtime"),
  };
}

/** Prints {@link notebookProblems} under `headline` (to stderr) and returns false when there are any. */
export function notebooksReady(paths: WorkbookPaths, headline: string): boolean {
  const problems = notebookProblems(paths);
  if (problems.length === 0) return true;
  process.stderr.write(`${headline}:\n  ${problems.join("\n  ")}\n`);
  return false;
}

/**
 * Resolves with a child's exit code once it has exited: its own code, 0 when it was stopped by SIGINT/SIGTERM
 * (a requested stop), 1 when it could not start (saying why) or died of another signal.
 */
export function exitCode(child: ChildProcess, who: string): Promise<number> {
  return new Promise<number>((resolve) => {
    child.on("error", (err) => {
      process.stderr.write(`${who}: could not start ${child.spawnfile}: ${err.message}\n`);
      resolve(1);
    });
    child.on("close", (code, signal) =>
      resolve(code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)),
    );
  });
}
