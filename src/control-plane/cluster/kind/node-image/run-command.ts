/**
 * Running the build tools of `workbook kind build-image` (go, mmdebstrap, docker, tar) as child processes:
 * stdout is collected and returned, stderr is passed on line by line as progress, and a non-zero exit rejects
 * with the command and the end of its stderr, so a failed step says what failed.
 */
import { spawn } from "node:child_process";

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Receives stderr lines (indented). */
  log?: (line: string) => void;
  /** Bytes written to the child's stdin (then closed). */
  input?: Buffer | string;
}

/** Runs `cmd args`; resolves its stdout, rejects naming the command when it cannot start or exits non-zero. */
export function runCommand(cmd: string, args: string[], options: RunCommandOptions = {}): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderr = (stderr + text).slice(-8000);
      for (const line of text.split("\n")) if (line.trim()) options.log?.(`  ${line}`);
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    child.once("error", (err) => reject(new Error(`Could not run ${cmd}: ${err.message}`)));
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(stdout);
      else {
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        reject(new Error(`${cmd} ${args.join(" ")} failed with ${how}:\n${stderr.slice(-4000)}`));
      }
    });
  });
}
