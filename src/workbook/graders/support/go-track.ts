/**
 * The Go track of a lab (`labs/NN-topic/go/`) at run time: the learner's controller-runtime program (built by
 * grading/go-build.ts) graded as an operator runs, a process per controller instance. The grader sets its
 * kubeconfig, namespace and metrics address through the environment (labs/go-kit's `labkit.Run` reads them),
 * counts its reconciles from the manager's own Prometheus metrics (`controller_runtime_reconcile_total`, what an
 * operator's owner watches), and stops it with SIGTERM, as the kubelet stops a Pod.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "../../../control-plane/cluster/envtest/ports.js";
import { ControlPlaneProcess } from "../../../control-plane/cluster/envtest/process.js";
import { sleep } from "./scenario.js";

/** Where a lab's program runs: the cluster's kubeconfig file and the namespace of one requirement. */
export interface GoLabTarget {
  kubeconfigPath: string;
  namespace: string;
  /** More of the program's environment, from the lab (lab 07: WORKBOOK_CLOUD_URL). */
  env?: Record<string, string>;
  /**
   * The program may end on its own without failing (lab 10: a manager that lost its Lease exits); its counts
   * then stay as last read. Otherwise an exit is a crash the grade reports.
   */
  mayExit?: boolean;
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
        ...this.target.env,
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
    await this.metrics();
    return this.finalCount;
  }

  /**
   * The program's metrics now (a Prometheus text exposition), or undefined once it no longer serves them
   * (stopped, or ended where the target allows it).
   */
  async metrics(): Promise<string | undefined> {
    if (!this.process || this.stopped) return undefined;
    const text = await this.scrape().catch(() => undefined);
    // Stopped or crashed while this scrape was under way: the count read at the stop is the last one.
    if (this.stopped) return undefined;
    if (text !== undefined) this.finalCount = sumSamples(text, "controller_runtime_reconcile_total");
    else if (!this.process.running && !this.target.mayExit) throw this.exitedError(); // a panic, a log.Fatal
    return text;
  }

  /** A crash: SIGKILL, so the program neither releases nor finishes anything. */
  async crash(): Promise<void> {
    await this.reconciles().catch(() => undefined);
    this.stopped = true;
    await this.process?.kill();
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
