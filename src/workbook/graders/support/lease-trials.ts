/**
 * Split-brain trials for leader election on a fake clock: three candidates share one in-memory Lease store
 * (kube-apiserver's compare-and-swap rule for Leases), each with its own skewed clock and its own faulty path to
 * the store. A seeded schedule crashes candidates, partitions them (their calls hang, then fail) and slows their
 * renewals (the write lands at once, the answer comes late). After every timer firing the trial asks each live
 * candidate whether it believes it leads: two at once is a split brain. Used by the lab 09 grader (the learner's
 * `LeaseCandidate`) and by the suite (the package's `LeaderElector`).
 */
import { type RandomSource, seededRandom } from "../../../apimachinery/index.js";
import { type Clock, FakeClock, type Timer } from "../../../clock/index.js";
import type { LeaseEndpoint, LeaseObject } from "../../../leaderelection/index.js";
import { InMemoryLeaseStore } from "../../../leaderelection/index.js";

/** The Lease every trial elects over. */
export const TRIAL_LEASE = { namespace: "trials", name: "leader" } as const;

/** Timings of a trial (ms of fake time). leaseDurationMs is whole seconds, as the Lease stores it. */
export interface TrialTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** The default trial timings: 3 s / 2 s / 0.5 s. */
export const TRIAL_TIMINGS: TrialTimings = {
  leaseDurationMs: 3000,
  renewDeadlineMs: 2000,
  retryPeriodMs: 500,
};

/** What a trial gives each candidate it starts. */
export interface TrialContext {
  identity: string;
  /** This candidate's own clock: the trial's time plus a fixed skew. */
  clock: Clock;
  /** This candidate's path to the shared store, with the faults the schedule gives it. */
  store: LeaseEndpoint;
  random: RandomSource;
  timings: TrialTimings;
}

/** A running candidate, as the trial sees it. */
export interface TrialCandidate {
  /** Whether it believes it leads now (it would act). */
  isLeader(): boolean;
  /** Stops it without writing anything more (a crash) and resolves when it has stopped. */
  stop(): Promise<void>;
}

/** Starts candidates of one implementation. */
export type TrialCandidateFactory = (context: TrialContext) => TrialCandidate;

/** The outcome of one trial. */
export interface TrialOutcome {
  seed: number;
  /** Moments with two or more believers: "t=12.5 s: c1, c2". */
  splitBrains: string[];
  /** Errors thrown by isLeader (a broken candidate). */
  errors: string[];
  /** Whether some live candidate led once the faults were over. */
  ledAfterFaults: boolean;
  /** How many times the believing leader changed. */
  leaderChanges: number;
}

/** A clock `offset` ms ahead of (or behind) `base`; its timers run on `base`. */
function skewedClock(base: FakeClock, offset: number): Clock {
  return {
    now: () => base.now() + offset,
    setTimer: (ms: number, callback: () => void): Timer => base.setTimer(ms, callback),
    sleep: (ms: number, signal?: AbortSignal) => base.sleep(ms, signal),
  };
}

type Fault = { kind: "partition" | "slow"; from: number; to: number; delay: number };

/** A store path with faults: during a partition calls hang until it heals, then fail; slow calls answer late. */
function faultyStore(store: LeaseEndpoint, clock: FakeClock, faults: readonly Fault[]): LeaseEndpoint {
  const active = (kind: Fault["kind"]) =>
    faults.find((f) => f.kind === kind && f.from <= clock.now() && clock.now() < f.to);
  const call = async <T>(op: () => Promise<T>): Promise<T> => {
    const cut = active("partition");
    if (cut) {
      await clock.sleep(cut.to - clock.now());
      throw Object.assign(new Error("partitioned: connection timed out"), { code: 504 });
    }
    const result = await op();
    const slow = active("slow");
    if (slow) await clock.sleep(slow.delay); // the write is applied; only the answer is late
    return result;
  };
  return {
    read: (namespace, name) => call(() => store.read(namespace, name)),
    create: (lease: LeaseObject) => call(() => store.create(lease)),
    replace: (lease: LeaseObject) => call(() => store.replace(lease)),
  };
}

/**
 * One seeded trial: 3 candidates, clock skews up to ±80% of the lease duration, faults during the first 40 s of
 * fake time, then 20 s of calm in which someone must lead. Every candidate is stopped at the end.
 */
export async function runTrial(
  seed: number,
  factory: TrialCandidateFactory,
  timings: TrialTimings = TRIAL_TIMINGS,
): Promise<TrialOutcome> {
  const random = seededRandom(seed);
  const clock = new FakeClock();
  const start = clock.now();
  const store = new InMemoryLeaseStore();
  const faultEnd = start + 40_000;
  const trialEnd = faultEnd + 20_000;
  const names = ["c1", "c2", "c3"];
  const crashAt = new Map<string, number>();
  // Up to two of the three crash, at random moments of the fault phase.
  for (const name of names.slice(0, Math.floor(random() * 3))) crashAt.set(name, start + random() * 40_000);
  const candidates = names.map((identity) => {
    const faults: Fault[] = [];
    for (let i = 0; i < 3; i++) {
      const from = start + random() * 36_000;
      const kind = random() < 0.5 ? "partition" : "slow";
      const length = (0.5 + random() * 2) * timings.leaseDurationMs;
      faults.push({
        kind,
        from,
        to: Math.min(faultEnd, from + length),
        delay: random() * 1.5 * timings.leaseDurationMs,
      });
    }
    const skew = Math.round((random() * 2 - 1) * 0.8 * timings.leaseDurationMs);
    const context: TrialContext = {
      identity,
      clock: skewedClock(clock, skew),
      store: faultyStore(store, clock, faults),
      random: seededRandom(seed * 31 + identity.charCodeAt(1)),
      timings,
    };
    return { identity, candidate: factory(context), crashed: false };
  });
  const outcome: TrialOutcome = {
    seed,
    splitBrains: [],
    errors: [],
    ledAfterFaults: false,
    leaderChanges: 0,
  };
  let believer = "";
  const sample = () => {
    const believers: string[] = [];
    for (const c of candidates) {
      if (c.crashed) continue;
      try {
        if (c.candidate.isLeader()) believers.push(c.identity);
      } catch (err) {
        if (outcome.errors.length < 3) outcome.errors.push(`${c.identity}.isLeader(): ${String(err)}`);
      }
    }
    const at = ((clock.now() - start) / 1000).toFixed(3);
    if (believers.length > 1 && outcome.splitBrains.length < 3)
      outcome.splitBrains.push(`t=${at} s: ${believers.join(", ")}`);
    if (believers.length === 1 && believers[0] !== believer) outcome.leaderChanges++;
    if (believers.length === 1) believer = believers[0] as string;
    if (believers.length > 0 && clock.now() >= faultEnd) outcome.ledAfterFaults = true;
  };
  while (clock.now() < trialEnd) {
    for (const c of candidates) {
      const at = crashAt.get(c.identity);
      if (!c.crashed && at !== undefined && clock.now() >= at) {
        c.crashed = true;
        void c.candidate.stop();
      }
    }
    const next = clock.nextDue();
    // Never jump past a crash moment or the end; if nothing is scheduled, let time pass in retry-sized steps.
    const crashes = [...crashAt.values()].filter((t) => t > clock.now());
    const target = Math.min(next ?? clock.now() + timings.retryPeriodMs, trialEnd, ...crashes);
    await clock.advance(Math.max(1, target - clock.now()));
    sample();
    if (outcome.errors.length > 0 && outcome.splitBrains.length > 0) break;
  }
  await Promise.race([
    Promise.all(candidates.map((c) => c.candidate.stop())),
    clock.advance(4 * timings.leaseDurationMs),
  ]);
  return outcome;
}

/** Runs `trials` seeded trials (seeds 1..trials) and sums them up. */
export async function runTrials(
  trials: number,
  factory: TrialCandidateFactory,
  timings: TrialTimings = TRIAL_TIMINGS,
): Promise<{
  outcomes: TrialOutcome[];
  splitBrains: string[];
  errors: string[];
  leaderless: number[];
  changes: number;
}> {
  const outcomes: TrialOutcome[] = [];
  for (let seed = 1; seed <= trials; seed++) outcomes.push(await runTrial(seed, factory, timings));
  return {
    outcomes,
    splitBrains: outcomes.flatMap((o) => o.splitBrains.map((s) => `seed ${o.seed}, ${s}`)),
    errors: outcomes.flatMap((o) => o.errors.map((s) => `seed ${o.seed}, ${s}`)),
    leaderless: outcomes.filter((o) => !o.ledAfterFaults).map((o) => o.seed),
    changes: outcomes.reduce((n, o) => n + o.leaderChanges, 0),
  };
}

/**
 * Drives a step-wise candidate (one with `tryAcquireOrRenew()`, like the lab's) the way client-go's loop would:
 * an attempt, then a pause of retryPeriodMs jittered by up to 1.2 x more, until stopped.
 */
export function loopingCandidate(
  context: TrialContext,
  candidate: { tryAcquireOrRenew(): Promise<boolean>; isLeader(): boolean },
): TrialCandidate {
  let stopped = false;
  const stopper = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      try {
        await candidate.tryAcquireOrRenew();
      } catch {
        // A failed attempt is just a failed attempt.
      }
      const pause = context.timings.retryPeriodMs * (1 + context.random() * 1.2);
      if (!(await context.clock.sleep(pause, stopper.signal))) break;
    }
  })();
  return {
    isLeader: () => candidate.isLeader(),
    stop: async () => {
      stopped = true;
      stopper.abort();
      await loop;
    },
  };
}
