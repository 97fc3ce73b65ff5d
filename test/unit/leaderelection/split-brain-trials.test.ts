/**
 * The lab 09 grader's split-brain trials, run against the package's own LeaderElector: 200 seeded trials of
 * crashes, partitions, slow renewals and skewed clocks on a fake clock, never two leaders at once, and a leader
 * again once the faults are over. A lost leader is restarted as a new elector (as a restarted process would be).
 */
import { describe, expect, it } from "vitest";
import { LeaderElector, LeaseObjectLock } from "../../../src/leaderelection/index.js";
import {
  runTrial,
  runTrials,
  TRIAL_LEASE,
  type TrialCandidate,
  type TrialContext,
} from "../../../src/workbook/graders/support/lease-trials.js";

/** One trial candidate: a LeaderElector over the trial's faulty store and skewed clock, restarted after a loss. */
function electorCandidate(context: TrialContext): TrialCandidate {
  let stopped = false;
  let current: LeaderElector;
  let done: Promise<void> = Promise.resolve();
  const start = () => {
    const elector = new LeaderElector({
      lock: new LeaseObjectLock(context.store, { ...TRIAL_LEASE, identity: context.identity }),
      leaseDurationMs: context.timings.leaseDurationMs,
      renewDeadlineMs: context.timings.renewDeadlineMs,
      retryPeriodMs: context.timings.retryPeriodMs,
      clock: context.clock,
      random: context.random,
      onError: () => {},
      callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {} },
    });
    current = elector;
    done = elector.run().then(() => {
      if (!stopped) start();
    });
  };
  start();
  return {
    isLeader: () => current.isLeader(),
    stop: async () => {
      stopped = true;
      await current.stop();
      await done;
    },
  };
}

describe("split-brain trials against the package's LeaderElector", () => {
  it("200 seeded trials: never two leaders, and a leader once the faults are over", async () => {
    const result = await runTrials(200, electorCandidate);
    expect(result.errors).toEqual([]);
    expect(result.splitBrains).toEqual([]);
    expect(result.leaderless).toEqual([]);
    expect(result.changes).toBeGreaterThan(200); // leadership moved: the faults did bite
  }, 120_000);

  it("the trials catch a split brain: an elector that keeps believing for a whole lease duration", async () => {
    // A candidate that believes it leads until the lease expires for the others (no renew-deadline margin).
    const believer = (context: TrialContext): TrialCandidate => {
      const inner = electorCandidate(context);
      let until = Number.NEGATIVE_INFINITY;
      return {
        isLeader: () => {
          if (inner.isLeader()) until = context.clock.now() + context.timings.leaseDurationMs + 1000;
          return context.clock.now() < until;
        },
        stop: () => inner.stop(),
      };
    };
    const outcomes = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => runTrial(seed, believer)));
    expect(outcomes.flatMap((o) => o.splitBrains).length).toBeGreaterThan(0);
  }, 60_000);
});
