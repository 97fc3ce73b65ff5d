/**
 * `workbook lab [jupyter lab options]` (npm start): opens JupyterLab on notebooks/ from the project's .venv,
 * with the project's tslab kernel first on the kernel search path, tslab the default kernel for new notebooks,
 * and `WORKBOOK_CLUSTER` defaulting to `embedded`.
 *
 * What can go wrong before JupyterLab starts is said in one or two sentences with the fix, never as a
 * traceback: Python missing, setup not done, JupyterLab not installed in .venv, the port taken.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeJupyterDefaults } from "./jupyter-defaults.js";
import { exitCode, notebookEnv, notebookProblems } from "./notebook-env.js";
import { checkPort } from "./port-check.js";
import type { PythonProbe } from "./setup.js";
import { type WorkbookPaths, workbookPaths } from "./workbook-paths.js";

/** JupyterLab's port when none is given, as Jupyter's own default. */
export const DEFAULT_LAB_PORT = 8888;

/**
 * The `jupyter` arguments: JupyterLab rooted at notebooks/ (unless the user chose a root), no silent hop to
 * another port when the chosen one is taken (lab checks it first and says so), then whatever the user added.
 * As root (containers, CI) Jupyter refuses to start without `--allow-root`, so it is added there.
 */
export function labArgs(
  paths: WorkbookPaths,
  extra: readonly string[],
  isRoot = process.getuid?.() === 0,
): string[] {
  const given = (pattern: RegExp) => extra.some((a) => pattern.test(a));
  const root = given(/^--(ServerApp\.root_dir|notebook-dir)\b/)
    ? []
    : [`--ServerApp.root_dir=${paths.notebooks}`];
  const retries = given(/^--(ServerApp\.)?port[-_]retries\b/) ? [] : ["--ServerApp.port_retries=0"];
  return ["lab", ...root, ...retries, ...(isRoot ? ["--allow-root"] : []), ...extra];
}

/** The value of a `--name=value` or `--name value` option, for any of `names`; the last one given wins. */
function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    for (const name of names) {
      if (args[i] === `--${name}` && i + 1 < args.length) value = args[i + 1];
      else if (args[i]!.startsWith(`--${name}=`)) value = args[i]!.slice(name.length + 3);
    }
  }
  return value;
}

/**
 * Where JupyterLab will listen, read from the arguments as Jupyter reads them (`--port`, `--ServerApp.port`,
 * `JUPYTER_PORT`; `--ip`, `--ServerApp.ip`). Port 0 means "any free port". Throws on a port that is not a
 * number from 0 to 65535.
 */
export function labAddress(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { host: string; port: number } {
  const text = optionValue(args, ["port", "ServerApp.port"]) ?? env.JUPYTER_PORT ?? String(DEFAULT_LAB_PORT);
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`workbook lab: the port must be a whole number from 0 to 65535, got "${text}"`);
  }
  const ip = optionValue(args, ["ip", "ServerApp.ip"]) ?? "localhost";
  return { host: ip === "localhost" ? "127.0.0.1" : ip, port };
}

/** What stops JupyterLab from starting, as sentences with the fix; empty when it can start. */
export function labProblems(paths: WorkbookPaths, python?: () => PythonProbe): string[] {
  const problems = notebookProblems(paths, python);
  if (problems.length === 0 && !existsSync(paths.venvJupyter)) {
    problems.push(
      "JupyterLab is not installed in .venv (an earlier setup failed). Run `npm run setup -- --force`.",
    );
  }
  return problems;
}

/** Where {@link runLab} writes. */
export interface LabOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: LabOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/**
 * Checks, then runs JupyterLab in the foreground until it exits (Ctrl-C); resolves with its exit code, or 1
 * when it could not start (after saying why).
 */
export async function runLab(
  args: string[],
  paths: WorkbookPaths = workbookPaths(),
  output: LabOutput = stdio,
): Promise<number> {
  const problems = labProblems(paths);
  if (problems.length > 0) {
    output.err(`workbook lab: JupyterLab cannot start yet:\n  ${problems.join("\n  ")}\n`);
    return 1;
  }
  const { host, port } = labAddress(args);
  if (port !== 0) {
    const check = await checkPort(port, host);
    if (!check.free) {
      output.err(portMessage(host, port, check.code));
      return 1;
    }
  }
  writeJupyterDefaults(paths);
  const env = notebookEnv(paths);
  output.out(
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

/** The sentence for a port JupyterLab cannot listen on, with what to do about it. */
export function portMessage(host: string, port: number, code: string): string {
  const next = port === 65535 ? port - 1 : port + 1;
  const other = `or choose another port: npm start -- --port ${next}`;
  if (code === "EADDRINUSE") {
    return (
      `workbook lab: port ${port} on ${host} is already in use. If JupyterLab is already running there, open ` +
      `http://${host}:${port}/lab in your browser (the token is in the terminal that started it); otherwise stop ` +
      `what holds the port, ${other}\n`
    );
  }
  if (code === "EACCES") return `workbook lab: no permission to listen on port ${port}; ${other}\n`;
  return `workbook lab: cannot listen on ${host}:${port} (${code}); check --ip, ${other}\n`;
}

/** `workbook lab`: {@link runLab} with the project's paths. */
export function run(args: string[]): Promise<number> {
  return runLab(args);
}
