/**
 * Leader election failover on the real clock, the seventh idea as numbers. Three candidates race for one Lease
 * (leaseDurationMs 1 s, renewDeadlineMs 0.6 s, retryPeriodMs 0.2 s) on the embedded server. Each trial stops the
 * current leader, either as a crash (it stops renewing and never releases) or gracefully (`releaseOnCancel`
 * writes an empty holder), and times how long until another candidate starts leading. A new candidate replaces
 * the stopped one, so there are always three.
 *
 * Judged against the bound the algorithm gives. A crash: a candidate's clock for the lease starts when it *sees*
 * the leader's last renewal (client-go's observedTime), which is at its next jittered retry, up to
 * retryPeriodMs x 2.2 after the renewal; the lease then expires leaseDurationMs later on that clock, and the
 * candidate takes it at its next retry, up to retryPeriodMs x 2.2 after that. So a crash just after a renewal
 * fails over within leaseDurationMs + 2 x retryPeriodMs x 2.2 (1,880 ms here). (The bound this family used
 * before, leaseDurationMs + retryPeriodMs x 2.2 = 1,440 ms, left out the first wait. The trial over it in the
 * run issue 27 quotes, 1,528 ms, fits: expiry plus the retry after it take at most 1,440 ms, so its candidate
 * saw the last renewal at least 88 ms after it was written.)
 * A release: at the next retry (retryPeriodMs x 2.2), since the empty holder makes the lease free at once.
 * Every trial also checks the safety property: no two leadership intervals overlap.
 */
import { JITTER_FACTOR } from "../../../leaderelection/leader-election-config.js";
import { LeaderElector } from "../../../leaderelection/leader-elector.js";
import { LeaseLock } from "../../../leaderelection/lease-lock.js";
import { xyChart } from "../../../workbook/viz/xychart.js";
import { startEmbeddedHost } from "../embedded-host.js";
import { percentile, sorted } from "../measure.js";
import { type BenchContext, type BenchFigure, type Benchmark, type BenchResult, judged } from "../types.js";
import { kubeConfigFrom } from "./informers.js";

const LEASE = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 200 };

interface Candidate {
  identity: string;
  controller: AbortController;
  done: Promise<void>;
  /** Start and end (ms) of each time this candidate led. */
  intervals: Array<{ start: number; end: number }>;
}

function overlaps(candidates: readonly Candidate[]): number {
  const all = candidates.flatMap((c) => c.intervals.map((i) => ({ ...i, who: c.identity })));
  let found = 0;
  for (let a = 0; a < all.length; a++)
    for (let b = a + 1; b < all.length; b++) {
      const x = all[a] as (typeof all)[number];
      const y = all[b] as (typeof all)[number];
      if (x.who !== y.who && x.start < y.end && y.start < x.end) found++;
    }
  return found;
}

/** Sorted failover times as bars, the bound as a line. */
function failoverChart(what: string, times: readonly number[], bound: number): string {
  const xs = times.map((_, i) => i + 1);
  return xyChart({
    title: `Failover ms per trial, sorted, ${what}`,
    x: xs,
    xLabel: "trial",
    yLabel: "ms",
    series: [
      { kind: "bar", values: sorted(times) },
      { kind: "line", values: xs.map(() => bound) },
    ],
  });
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const trials = ctx.tiny ? 1 : 20;
  const host = await startEmbeddedHost();
  const everyone: Candidate[] = [];
  try {
    await host.fill("bench-le", 0);
    const kc = kubeConfigFrom(host.kubeconfigPath);
    let serial = 0;
    let onLeader: ((c: Candidate) => void) | undefined;
    const candidate = (graceful: boolean): Candidate => {
      const identity = `candidate-${serial++}`;
      const c: Candidate = {
        identity,
        controller: new AbortController(),
        done: Promise.resolve(),
        intervals: [],
      };
      const elector = new LeaderElector({
        lock: new LeaseLock(kc, { namespace: "bench-le", name: "bench-failover", identity }),
        ...LEASE,
        releaseOnCancel: graceful,
        callbacks: {
          onStartedLeading: (signal) => {
            const interval = { start: performance.now(), end: Number.POSITIVE_INFINITY };
            c.intervals.push(interval);
            signal.addEventListener("abort", () => {
              interval.end = performance.now();
            });
            onLeader?.(c);
          },
          onStoppedLeading: () => {},
        },
      });
      c.done = elector.run(c.controller.signal);
      everyone.push(c);
      return c;
    };
    const leaderNow = () => everyone.find((c) => c.intervals.some((i) => i.end === Number.POSITIVE_INFINITY));
    const nextLeader = () =>
      new Promise<Candidate>((resolve) => {
        const current = leaderNow();
        if (current) return resolve(current);
        onLeader = (c) => {
          onLeader = undefined;
          resolve(c);
        };
      });
    const failovers: Record<"crash" | "release", number[]> = { crash: [], release: [] };
    for (const kind of ["crash", "release"] as const) {
      const graceful = kind === "release";
      const live = [candidate(graceful), candidate(graceful), candidate(graceful)];
      for (let t = 0; t < trials; t++) {
        const leader = await nextLeader();
        // Stop at a random point of the renewal cycle, not right after an acquire.
        await new Promise((r) => setTimeout(r, Math.random() * LEASE.retryPeriodMs));
        const next = new Promise<Candidate>((resolve) => {
          onLeader = (c) => {
            onLeader = undefined;
            resolve(c);
          };
        });
        const stoppedAt = performance.now();
        leader.controller.abort();
        const successor = await next;
        failovers[kind].push((successor.intervals.at(-1)?.start ?? Number.NaN) - stoppedAt);
        await leader.done;
        live.splice(live.indexOf(leader), 1, candidate(graceful));
      }
      for (const c of live) c.controller.abort();
      await Promise.all(live.map((c) => c.done));
    }
    // Rounded to the millisecond: 200 x 2.2 is 440.00000000000006 in floating point.
    const crashBound = Math.round(LEASE.leaseDurationMs + 2 * LEASE.retryPeriodMs * (1 + JITTER_FACTOR));
    const releaseBound = Math.round(LEASE.retryPeriodMs * (1 + JITTER_FACTOR));
    const doubled = overlaps(everyone);
    const figure = (kind: "crash" | "release", bound: number): BenchFigure[] => {
      const s = sorted(failovers[kind]);
      const within = s.filter((x) => x <= bound).length;
      return [
        judged({
          name: `failover after a ${kind}: p99 time to a new leader (${s.length} trials)`,
          value: percentile(s, 99),
          unit: "ms",
          target: `<= ${bound}`,
          notes: `p50 ${percentile(s, 50).toFixed(0)} ms, min ${s[0]?.toFixed(0)}, max ${s.at(-1)?.toFixed(0)}; ${within}/${s.length} within the bound`,
        }),
      ];
    };
    return {
      figures: [
        ...figure("crash", crashBound),
        ...figure("release", releaseBound),
        judged({
          name: "trials with two leaders at once",
          value: doubled,
          unit: "overlaps",
          target: "<= 0",
          notes: `${everyone.length} candidates, leadership intervals compared pairwise`,
        }),
      ],
      charts: [
        failoverChart(`after a crash; line: bound ${crashBound} ms`, failovers.crash, crashBound),
        failoverChart(
          `after a graceful release; line: bound ${releaseBound} ms`,
          failovers.release,
          releaseBound,
        ),
      ],
      missing: [],
    };
  } finally {
    for (const c of everyone) c.controller.abort();
    await Promise.all(everyone.map((c) => c.done.catch(() => undefined)));
    await host.stop();
  }
}

/** The leader-election failover family. */
export const benchmark: Benchmark = {
  name: "leader-election",
  title:
    "time to a new leader after a crash and after a release, real clock, short leases; never two leaders",
  run,
};
