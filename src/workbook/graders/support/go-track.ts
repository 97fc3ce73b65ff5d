/**
 * The Go track of a lab (`labs/NN-topic/go/`): the learner's controller-runtime program, built with the Go
 * toolchain and graded as an operator runs, a process per controller instance. The grader sets its
 * kubeconfig, namespace and metrics address through the environment (labs/go-kit's `labkit.Run` reads them),
 * counts its reconciles from the manager's own Prometheus metrics (`controller_runtime_reconcile_total`, what an
 * operator's owner watches), and stops it with SIGTERM, as the kubelet stops a Pod.
 *
 * The build: the lab folder and labs/go-kit form a Go workspace (a go.work the grader writes next to the
 * binary), so the lab's go.mod needs no `replace` and no go.sum of its own, wherever the folder is. Binaries
 * are cached by a hash of every source file, under `~/.cache/kube-controller-workbook/go-labs/<hash>/`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freeLoopbackPort } from "../../../control-plane/cluster/envtest/ports.js";
import { ControlPlaneProcess } from "../../../control-plane/cluster/envtest/process.js";
import { findGo, goUnavailableReason, MIN_GO_MINOR } from "./go-toolchain.js";
import { sleep } from "./scenario.js";

const exec = promisify(execFile);

/** The Go module every Go lab builds with: labkit (the manager a lab runs in) and the workbook's API types. */
export const LABKIT_DIR = fileURLToPath(new URL("../../../../labs/go-kit/", import.meta.url));

/** A lab folder is graded on the Go track when it holds a go.mod (`labs/NN-topic/go/`). */
export function isGoTrack(dir: string): boolean {
  return existsSync(join(dir, "go.mod"));
}

/** Checks that a Go new enough is installed, or throws one line saying what to install. */
async function requireGo(): Promise<string> {
  const go = findGo();
  const problem = await goUnavailableReason(go);
  if (!go || problem)
    throw new Error(
      `the Go track needs Go 1.${MIN_GO_MINOR} or newer: ${problem}; install it (https://go.dev/dl/) and put it on PATH, or grade the TypeScript track (without --go)`,
    );
  return go;
}

/** Source files of a Go module folder (recursive), relative and sorted: what the build depends on. */
async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/(\.go|^go\.mod|^go\.sum)$/.test(entry.name)) continue;
    out.push(relative(dir, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

async function buildKey(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const [root, tag] of [
    [dir, "lab"],
    [LABKIT_DIR, "kit"],
  ] as const) {
    for (const name of await sources(root)) {
      hash.update(`${tag}/${name}\0`);
      hash.update(await readFile(join(root, name)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "kube-controller-workbook", "go-labs");
}

/** A built lab program. */
export interface GoLabBuild {
  binary: string;
  /** False when the cache already had this exact source. */
  compiled: boolean;
  /** Wall time of `go build` (0 on a cache hit). */
  ms: number;
}

/**
 * Builds the lab's program (`go build` in the lab folder, in a workspace with labs/go-kit), unless this exact
 * source was built before. A compile error throws with the compiler's output, which the grade report shows.
 */
export async function buildGoLab(dir: string): Promise<GoLabBuild> {
  const out = join(cacheRoot(), await buildKey(dir));
  const binary = join(out, "controller");
  if (existsSync(binary)) return { binary, compiled: false, ms: 0 };
  const go = await requireGo();
  await mkdir(out, { recursive: true });
  const work = join(out, "go.work");
  await writeFile(work, `go 1.${MIN_GO_MINOR}.0\n\nuse (\n\t${dir}\n\t${LABKIT_DIR}\n)\n`);
  const partial = `${binary}.${process.pid}.partial`;
  const started = Date.now();
  try {
    await exec(go, ["build", "-trimpath", "-o", partial, "."], {
      cwd: dir,
      env: { ...process.env, GOWORK: work, CGO_ENABLED: "0" },
      timeout: 20 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    await rm(partial, { force: true });
    const stderr = ((err as { stderr?: string }).stderr ?? "").trim();
    throw new Error(`go build failed in ${dir}:\n${stderr || (err as Error).message}`);
  }
  await rename(partial, binary);
  return { binary, compiled: true, ms: Date.now() - started };
}

/** Where a lab's program runs: the cluster's kubeconfig file and the namespace of one requirement. */
export interface GoLabTarget {
  kubeconfigPath: string;
  namespace: string;
}

/** Sums every sample of `metric` in a Prometheus text exposition (all label sets). */
export function sumSamples(exposition: string, metric: string): number {
  let sum = 0;
  for (const line of exposition.split("\n")) {
    const next = line[metric.length];
    if (!line.startsWith(metric) || (next !== "{" && next !== " ")) continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

/** How long a manager with no controller registered is given to show one before it counts as started. */
const NO_CONTROLLER_GRACE_MS = 3000;
/** How long a program may take to serve metrics and sync its caches. */
const START_TIMEOUT_MS = 30_000;

/**
 * One running instance of the learner's Go program, driven as the TypeScript track drives a factory's
 * controller: `start()` resolves once every controller of its manager has started its workers (their caches
 * have synced: controller-runtime logs "Starting workers"), `stop()` once the process has exited after SIGTERM.
 */
export class GoLabController {
  private process: ControlPlaneProcess | undefined;
  private port = 0;
  private logDir: string | undefined;
  private finalCount = 0;
  private stopped = false;

  constructor(
    private readonly binary: string,
    private readonly target: GoLabTarget,
  ) {}

  async start(): Promise<void> {
    this.port = await freeLoopbackPort();
    this.logDir = await mkdtemp(join(tmpdir(), "workbook-go-lab-"));
    this.process = await ControlPlaneProcess.start({
      name: "your Go program",
      command: this.binary,
      args: [],
      logFile: join(this.logDir, "controller.log"),
      env: {
        KUBECONFIG: this.target.kubeconfigPath,
        WORKBOOK_NAMESPACE: this.target.namespace,
        WORKBOOK_METRICS_ADDRESS: `127.0.0.1:${this.port}`,
      },
    });
    const started = Date.now();
    let servingSince: number | undefined;
    for (;;) {
      const text = await this.scrape().catch(() => undefined);
      if (text !== undefined) {
        servingSince ??= Date.now();
        const controllers = new Set(
          [...text.matchAll(/^controller_runtime_reconcile_total\{controller="([^"]*)"/gm)].map((m) => m[1]),
        );
        // controller-runtime logs "Starting workers" for a controller once its sources' caches have synced.
        const working = this.log().split('"msg":"Starting workers"').length - 1;
        if (controllers.size > 0 && working >= controllers.size) return;
        if (controllers.size === 0 && Date.now() - servingSince >= NO_CONTROLLER_GRACE_MS) return;
      }
      if (!this.process.running) throw this.exitedError();
      if (Date.now() - started >= START_TIMEOUT_MS)
        throw new Error(
          `your Go program did not sync its caches within ${START_TIMEOUT_MS / 1000} s:\n${this.tail()}`,
        );
      await sleep(50);
    }
  }

  /** Reconciles this instance has finished (all controllers, all results), read from its metrics. */
  async reconciles(): Promise<number> {
    if (!this.process || this.stopped) return this.finalCount;
    const text = await this.scrape().catch(() => undefined);
    if (text !== undefined) this.finalCount = sumSamples(text, "controller_runtime_reconcile_total");
    else if (!this.process.running && !this.stopped) throw this.exitedError(); // a panic, a log.Fatal
    return this.finalCount;
  }

  async stop(): Promise<void> {
    if (!this.process) return;
    await this.reconciles().catch(() => undefined);
    this.stopped = true;
    await this.process.stop();
    if (this.logDir) await rm(this.logDir, { recursive: true, force: true });
    this.logDir = undefined;
  }

  private exitedError(): Error {
    return new Error(`your Go program exited on its own; its last lines:\n${this.tail()}`);
  }

  private log(): string {
    try {
      return this.logDir ? readFileSync(join(this.logDir, "controller.log"), "utf8") : "";
    } catch {
      return "";
    }
  }

  private tail(): string {
    return this.process?.logTail(15) ?? "";
  }

  private async scrape(): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${this.port}/metrics`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) throw new Error(`metrics answered ${res.status}`);
    return res.text();
  }
}
