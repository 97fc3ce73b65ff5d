/**
 * A JupyterLab for the browser tests, started the way a learner starts it (`workbook lab`, i.e. `npm start`),
 * on loopback with a random token, with settings of its own (a fresh folder: light theme, autosave off so the
 * notebooks under test are never written) and `window.jupyterapp` exposed so the test can ask the app about
 * kernels and cells instead of guessing from pixels.
 *
 * It runs in a process group of its own; {@link LabServer.stop} ends `workbook lab` (which passes SIGTERM to
 * Jupyter, which shuts its kernels down), then kills whatever of the group is left, and checks that nothing is.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { WorkbookPaths } from "../../../src/tools/cli/workbook-paths.js";

/** A running JupyterLab: where it is, and how to stop it. */
export interface LabServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly base: string;
  readonly token: string;
  /** Everything Jupyter printed so far (for failure messages). */
  log(): string;
  /** Stops JupyterLab and its kernels; rejects if any process of its group outlives the stop. */
  stop(): Promise<void>;
}

/** JupyterLab user settings for the tests: file name under the settings folder -> settings. */
const SETTINGS: Record<string, object> = {
  "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": { autosave: false },
  "@jupyterlab/apputils-extension/themes.jupyterlab-settings": { theme: "JupyterLab Light" },
  "@jupyterlab/apputils-extension/notification.jupyterlab-settings": { fetchNews: "false" },
};

function writeSettings(dir: string): void {
  for (const [file, value] of Object.entries(SETTINGS)) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

function waitForUrl(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/lab\?token=/.exec(output());
      if (match) {
        cleanup();
        resolve(match[1]!);
      }
    }, 100);
    const limit = setTimeout(() => {
      cleanup();
      reject(new Error(`JupyterLab did not print its URL within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const onClose = (code: number | null) => {
      cleanup();
      reject(new Error(`workbook lab exited (${code}) before serving:\n${output()}`));
    };
    const cleanup = () => {
      clearInterval(timer);
      clearTimeout(limit);
      child.off("close", onClose);
    };
    child.on("close", onClose);
  });
}

/**
 * Starts `workbook lab` for `paths` (the checkout's built CLI), with `extra` Jupyter options after the test's
 * own, and resolves once JupyterLab serves.
 */
export async function startLab(
  paths: WorkbookPaths,
  extra: readonly string[] = [],
  timeoutMs = 90_000,
): Promise<LabServer> {
  const home = mkdtempSync(join(tmpdir(), "workbook-e2e-lab-"));
  const settings = join(home, "settings");
  writeSettings(settings);
  const token = randomBytes(16).toString("hex");
  const args = [
    join(paths.root, "dist", "tools", "cli", "main.js"),
    "lab",
    "--no-browser",
    "--ServerApp.ip=127.0.0.1",
    "--ServerApp.port=0",
    `--IdentityProvider.token=${token}`,
    `--LabApp.user_settings_dir=${settings}`,
    `--LabApp.workspaces_dir=${join(home, "workspaces")}`,
    "--LabApp.expose_app_in_browser=True",
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    cwd: paths.root,
    env: { ...process.env, JUPYTER_RUNTIME_DIR: join(home, "runtime") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const pgid = child.pid!;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const clean = await Promise.race([
      exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 20_000)),
    ]);
    // Kernels exit shortly after Jupyter; anything still in the group after that is a leak, killed here.
    const empty = await waitUntil(() => !groupAlive(pgid), 10_000);
    if (!empty) process.kill(-pgid, "SIGKILL");
    rmSync(home, { recursive: true, force: true });
    if (!clean || !empty) {
      throw new Error(
        `JupyterLab did not stop cleanly on SIGTERM (had to kill its process group):\n${output}`,
      );
    }
  };
  try {
    const base = await waitForUrl(child, () => output, timeoutMs);
    return { base, token, log: () => output, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
