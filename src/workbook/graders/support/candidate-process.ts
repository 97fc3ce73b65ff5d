/**
 * The Go track of lab 09 at run time: one Lease candidate per process of the learner's program (labkit's
 * `RunCandidate`). The grader gives it its kubeconfig, namespace, Lease, identity, timings and clock skew through
 * the environment; the program prints each change of its `IsLeader()` on stdout ("leading T", "stopped T") with
 * the moment it saw it on CLOCK_MONOTONIC, the clock every process of the machine shares, so the beliefs of
 * several candidates compare exactly, however late the grader reads them.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import { ControlPlaneProcess } from "../../../control-plane/cluster/envtest/process.js";
import { monotonicMs, ReplicaProxy } from "./replica-proxy.js";
import { sleep } from "./scenario.js";

/** How one candidate process runs: its kubeconfig and namespace, its Lease and identity, its timings (ms). */
export interface CandidateProcessOptions {
  kubeconfigPath: string;
  namespace: string;
  leaseName: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** How far its clock runs ahead of the real one (ms; negative: behind). */
  clockSkewMs?: number;
}

/** A stretch of time a candidate believed it led (CLOCK_MONOTONIC ms); `to` is undefined while it still does. */
export interface Belief {
  identity: string;
  from: number;
  to: number | undefined;
}

/** One running candidate of the learner's Go program. */
export class CandidateProcess {
  /** When it was stopped (CLOCK_MONOTONIC ms): a belief still open then ended no later. */
  private endedAt: number | undefined;
  private expectedEnd = false;

  private constructor(
    readonly identity: string,
    private readonly process: ControlPlaneProcess,
    private readonly logDir: string,
  ) {}

  static async start(binary: string, options: CandidateProcessOptions): Promise<CandidateProcess> {
    const logDir = await mkdtemp(join(tmpdir(), "workbook-lab09-"));
    const process = await ControlPlaneProcess.start({
      name: `your Go program (candidate ${options.identity})`,
      command: binary,
      args: [],
      logFile: join(logDir, "candidate.log"),
      env: {
        KUBECONFIG: options.kubeconfigPath,
        WORKBOOK_NAMESPACE: options.namespace,
        WORKBOOK_LEASE_NAME: options.leaseName,
        WORKBOOK_IDENTITY: options.identity,
        WORKBOOK_LEASE_DURATION: `${options.leaseDurationMs}ms`,
        WORKBOOK_RENEW_DEADLINE: `${options.renewDeadlineMs}ms`,
        WORKBOOK_RETRY_PERIOD: `${options.retryPeriodMs}ms`,
        WORKBOOK_CLOCK_SKEW: `${options.clockSkewMs ?? 0}ms`,
      },
    });
    return new CandidateProcess(options.identity, process, logDir);
  }

  /** What it believed so far, in order. Throws when the program ended without being told to (a panic). */
  beliefs(): Belief[] {
    const beliefs: Belief[] = [];
    for (const line of this.log().split("\n")) {
      const m = /^(leading|stopped) (\d+(?:\.\d+)?)$/.exec(line.trim());
      if (!m) continue;
      const at = Number(m[2]);
      const open = beliefs.at(-1);
      if (m[1] === "leading" && (open === undefined || open.to !== undefined))
        beliefs.push({ identity: this.identity, from: at, to: undefined });
      else if (m[1] === "stopped" && open && open.to === undefined) open.to = at;
    }
    if (!this.process.running && !this.expectedEnd)
      throw new Error(
        `your Go program (candidate ${this.identity}) exited on its own; its last lines:\n${this.tail()}`,
      );
    const last = beliefs.at(-1);
    if (last && last.to === undefined && this.endedAt !== undefined) last.to = this.endedAt;
    return beliefs;
  }

  /** Whether it believes it leads now (as far as it has reported). */
  leading(): boolean {
    const last = this.beliefs().at(-1);
    return last !== undefined && last.to === undefined;
  }

  /** Stops it (SIGTERM) and removes its log. */
  async stop(): Promise<void> {
    this.expectedEnd = true;
    await this.process.stop();
    this.endedAt ??= monotonicMs();
    await rm(this.logDir, { recursive: true, force: true });
  }

  private tail(): string {
    return this.process.logTail(15);
  }

  private log(): string {
    try {
      return readFileSync(join(this.logDir, "candidate.log"), "utf8");
    } catch {
      return "";
    }
  }
}

/** Pairs of beliefs of different candidates that overlap in time: moments with two leaders. */
export function overlappingBeliefs(beliefs: readonly Belief[], now = monotonicMs()): [Belief, Belief][] {
  const pairs: [Belief, Belief][] = [];
  for (const [i, a] of beliefs.entries()) {
    for (const b of beliefs.slice(i + 1)) {
      if (a.identity === b.identity) continue;
      if (a.from < (b.to ?? now) && b.from < (a.to ?? now)) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** What an {@link Election} needs to start candidates: the program, the cluster, the Lease and the timings. */
export interface ElectionPlace {
  binary: string;
  kubeConfig: KubeConfig;
  kubeconfigPath: string;
  namespace: string;
  leaseName: string;
  timings: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
}

/**
 * One check's election on the Go track: candidate processes of the learner's program on one Lease, some through a
 * {@link ReplicaProxy} of their own (whose Lease requests the check can hold back, slow down or cut off).
 */
export class Election {
  readonly candidates = new Map<string, CandidateProcess>();
  readonly proxies = new Map<string, ReplicaProxy>();
  private files: string | undefined;

  constructor(readonly place: ElectionPlace) {}

  /** Starts candidate `identity`; with `proxied`, it reaches the API server through a proxy of its own. */
  async start(
    identity: string,
    options: { proxied?: boolean; clockSkewMs?: number; leaseGate?: ReplicaProxy["leaseGate"] } = {},
  ): Promise<CandidateProcess> {
    let kubeconfigPath = this.place.kubeconfigPath;
    if (options.proxied) {
      const proxy = await ReplicaProxy.start(this.place.kubeConfig);
      proxy.leaseGate = options.leaseGate;
      this.proxies.set(identity, proxy);
      this.files ??= await mkdtemp(join(tmpdir(), "workbook-lab09-"));
      kubeconfigPath = join(this.files, `${identity}.kubeconfig`);
      await writeFile(kubeconfigPath, proxy.kubeConfig().exportConfig());
    }
    const candidate = await CandidateProcess.start(this.place.binary, {
      ...this.place.timings,
      kubeconfigPath,
      namespace: this.place.namespace,
      leaseName: this.place.leaseName,
      identity,
      clockSkewMs: options.clockSkewMs,
    });
    this.candidates.set(identity, candidate);
    return candidate;
  }

  /** The proxy of candidate `identity` (started with `proxied`). */
  proxy(identity: string): ReplicaProxy {
    const proxy = this.proxies.get(identity);
    if (!proxy) throw new Error(`candidate ${identity} has no proxy`);
    return proxy;
  }

  /** Every belief of every candidate so far; throws when a candidate's program ended on its own. */
  beliefs(): Belief[] {
    return [...this.candidates.values()].flatMap((c) => c.beliefs());
  }

  /** Fails when two candidates believed they led at the same moment. */
  expectOneLeaderAtATime(): void {
    const [pair] = overlappingBeliefs(this.beliefs());
    if (pair) {
      const [a, b] = pair;
      const both = Math.min(a.to ?? monotonicMs(), b.to ?? monotonicMs()) - Math.max(a.from, b.from);
      throw new Error(`${a.identity} and ${b.identity} both believed they led, for ${Math.round(both)} ms`);
    }
  }

  /**
   * Waits until `condition` holds (polled; a candidate that ended on its own fails at once), at most
   * `timeoutMs`; then fails with "`what` did not happen within ...".
   */
  async waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = monotonicMs() + timeoutMs;
    for (;;) {
      this.beliefs();
      if (await condition()) return;
      if (monotonicMs() >= deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
      await sleep(20);
    }
  }

  /** Stops every candidate, then every proxy (releasing what they hold back), and removes the files. */
  async close(): Promise<void> {
    await Promise.all([...this.candidates.values()].map((c) => c.stop()));
    await Promise.all([...this.proxies.values()].map((p) => p.stop()));
    if (this.files) await rm(this.files, { recursive: true, force: true });
  }
}
