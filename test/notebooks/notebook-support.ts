import { spawn } from "node:child_process";
import { join } from "node:path";
import { notebookProblems } from "../../src/tools/cli/notebook-env.js";
import { workbookPaths } from "../../src/tools/cli/workbook-paths.js";

export const paths = workbookPaths();

/**
 * Why the notebook tests cannot run here, or undefined when they can. In CI the venv and kernel must exist, so
 * there a missing piece is a failure, not a skip.
 */
export function notebookSkipReason(): string | undefined {
  const problems = notebookProblems(paths);
  if (problems.length === 0) return undefined;
  if (process.env.CI) throw new Error(`CI must be able to run notebooks:\n${problems.join("\n")}`);
  return `notebook tooling not set up: ${problems.join(" ")}`;
}

/** Runs the built `workbook` CLI and collects its exit code and combined output. */
export function runWorkbook(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(paths.root, "dist", "tools", "cli", "main.js"), ...args], {
      cwd: paths.root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
