/**
 * `workbook lab [jupyter lab options]` (npm start): opens JupyterLab on notebooks/ from the project's .venv,
 * with the project's tslab kernel first on the kernel search path and `WORKBOOK_CLUSTER` defaulting to
 * `embedded`. Without setup it says exactly what to run and exits 1.
 */
import { spawn } from "node:child_process";
import { exitCode, notebookEnv, notebooksReady } from "./notebook-env.js";
import { type WorkbookPaths, workbookPaths } from "./workbook-paths.js";

/**
 * The `jupyter` arguments: JupyterLab rooted at notebooks/, then whatever the user added. As root (containers,
 * CI) Jupyter refuses to start without `--allow-root`, so it is added there.
 */
export function labArgs(
  paths: WorkbookPaths,
  extra: readonly string[],
  isRoot = process.getuid?.() === 0,
): string[] {
  return ["lab", `--ServerApp.root_dir=${paths.notebooks}`, ...(isRoot ? ["--allow-root"] : []), ...extra];
}

/** Runs JupyterLab in the foreground until it exits (Ctrl-C); resolves with its exit code. */
export async function run(args: string[]): Promise<number> {
  const paths = workbookPaths();
  if (!notebooksReady(paths, "workbook lab: JupyterLab cannot start yet")) return 1;
  const env = notebookEnv(paths);
  process.stdout.write(
    `workbook lab: JupyterLab on notebooks/ (WORKBOOK_CLUSTER=${env.WORKBOOK_CLUSTER}); Ctrl-C stops it\n`,
  );
  const child = spawn(paths.venvJupyter, labArgs(paths, args), {
    cwd: paths.notebooks,
    env,
    stdio: "inherit",
  });
  // Ctrl-C reaches Jupyter through the terminal's process group; a SIGTERM to us is passed on.
  const forward = () => child.kill("SIGTERM");
  process.once("SIGTERM", forward);
  const code = await exitCode(child, "workbook lab");
  process.off("SIGTERM", forward);
  return code;
}
