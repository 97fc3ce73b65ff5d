/**
 * One control-plane process (etcd, kube-apiserver, kube-controller-manager) run as a child of this Node
 * process, with its output kept in a log file for when things go wrong. Mirrors envtest's `process.State`:
 * start, watch for early exit, stop with SIGTERM and then SIGKILL after a grace period.
 *
 * Invariants: `stop()` is idempotent and resolves only once the process has exited; `exited` settles exactly
 * once, whether the process was stopped or died on its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { type Clock, realClock } from "../../../clock/index.js";

/**
 * Children still running. If this Node process ends without stopping them (a crashed test run, a test worker
 * terminated with SIGTERM), they are killed rather than left orphaned: on `exit`, and on SIGTERM when no one else
 * listens for it (then this process exits with 143, as the default SIGTERM action would). The SIGTERM listener
 * exists only while children are alive.
 */
const live = new Set<ChildProcess>();

function killLive(): void {
  for (const child of live) child.kill("SIGKILL");
}

function onSigterm(): void {
  if (process.listenerCount("SIGTERM") > 1) return; // someone else owns shutdown and will call stop()
  killLive();
  process.exit(143);
}

function track(child: ChildProcess): void {
  if (live.size === 0) {
    process.on("exit", killLive);
    process.on("SIGTERM", onSigterm);
  }
  live.add(child);
}

function untrack(child: ChildProcess): void {
  if (!live.delete(child) || live.size > 0) return;
  process.off("exit", killLive);
  process.off("SIGTERM", onSigterm);
}

/** How a control-plane process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of {@link ControlPlaneProcess.start}. */
export interface ControlPlaneProcessOptions {
  /** A short name for messages (`etcd`, `kube-apiserver`). */
  name: string;
  /** Absolute path of the binary. */
  command: string;
  /** Command-line arguments. */
  args: string[];
  /** File that receives stdout and stderr. */
  logFile: string;
  /** Variables added to this process's environment for the child (default: the environment as it is). */
  env?: NodeJS.ProcessEnv;
  /** Grace period between SIGTERM and SIGKILL in `stop()` (default 10 s, envtest's order of magnitude). */
  stopTimeoutMs?: number;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
}

/** A running child process with a log file, an `exited` promise and an idempotent `stop()`. */
export class ControlPlaneProcess {
  /** Settles when the process has exited, for whatever reason. */
  readonly exited: Promise<ProcessExit>;
  private exit: ProcessExit | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly options: ControlPlaneProcessOptions,
  ) {
    track(child);
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once("exit", (code, signal) => {
        untrack(child);
        this.exit = { code, signal };
        resolve(this.exit);
      });
      child.once("error", () => {
        untrack(child);
        this.exit ??= { code: null, signal: null };
        resolve(this.exit);
      });
    });
  }

  /** Spawns the binary with stdout/stderr appended to `logFile`. Throws if it cannot be spawned at all. */
  static async start(options: ControlPlaneProcessOptions): Promise<ControlPlaneProcess> {
    const fd = openSync(options.logFile, "a");
    try {
      const env = options.env ? { ...process.env, ...options.env } : process.env;
      const child = spawn(options.command, options.args, { env, stdio: ["ignore", fd, fd] });
      const proc = new ControlPlaneProcess(child, options);
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", () => resolve());
        child.once("error", (err) =>
          reject(new Error(`Could not start ${options.name} (${options.command}): ${err.message}`)),
        );
      });
      return proc;
    } finally {
      closeSync(fd);
    }
  }

  /** Process id (for tests that check nothing is left running). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return this.exit === undefined;
  }

  /** The last `lines` lines of the log: what an error message shows when the process fails. */
  logTail(lines = 20): string {
    try {
      return readFileSync(this.options.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited within the grace period. Resolves once it has exited. */
  stop(): Promise<void> {
    this.stopping ??= this.terminate();
    return this.stopping;
  }

  /** SIGKILL at once, as a crash ends a process (no shutdown of its own). Resolves once it has exited. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill("SIGKILL");
    await this.exited;
  }

  private async terminate(): Promise<void> {
    if (!this.running) return;
    const clock = this.options.clock ?? realClock;
    this.child.kill("SIGTERM");
    const timer = clock.setTimer(this.options.stopTimeoutMs ?? 10_000, () => {
      if (this.running) this.child.kill("SIGKILL");
    });
    await this.exited;
    timer.stop();
  }
}
