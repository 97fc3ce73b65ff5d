import { seededRandom } from "../../../src/apimachinery/wait/index.js";
import type { FakeClock } from "../../../src/clock/index.js";
import {
  type InMemoryLeaseStore,
  InMemoryLock,
  type LeaderElectionConfig,
  LeaderElector,
} from "../../../src/leaderelection/index.js";
import { FaultyEndpoint } from "./faulty-endpoint.js";

/** One candidate wired for tests: an elector on the shared store behind its own faulty link. */
export interface Candidate {
  id: string;
  elector: LeaderElector;
  link: FaultyEndpoint;
  /** "started" / "stopped" / "new-leader:<id>" in the order they happened, each with the time. */
  log: string[];
  /** What the elector reported to `onError`, as `operation: message`. */
  errors: string[];
  /** The signal handed to onStartedLeading, once leading. */
  signal: AbortSignal | undefined;
  done: Promise<void>;
}

/** Starts a candidate; `overrides` replace any config field (durations, callbacks, releaseOnCancel). */
export function startCandidate(
  store: InMemoryLeaseStore,
  clock: FakeClock,
  id: string,
  overrides: Partial<LeaderElectionConfig> = {},
  seed = 1,
): Candidate {
  const link = new FaultyEndpoint(store, clock);
  const candidate: Partial<Candidate> & { log: string[]; errors: string[] } = {
    id,
    link,
    log: [],
    errors: [],
  };
  const at = () => `${(clock.now() - Date.UTC(2026, 0, 1)) / 1000}s`;
  const elector = new LeaderElector({
    lock: new InMemoryLock(store, { namespace: "default", name: "lock", identity: id }, link),
    clock,
    random: seededRandom(seed),
    onError: (err, context) =>
      candidate.errors.push(`${context.operation}: ${err instanceof Error ? err.message : String(err)}`),
    callbacks: {
      onStartedLeading: (signal) => {
        candidate.signal = signal;
        candidate.log.push(`started@${at()}`);
        signal.addEventListener("abort", () => candidate.log.push(`aborted@${at()}`));
      },
      onStoppedLeading: () => candidate.log.push(`stopped@${at()}`),
      onNewLeader: (leader) => candidate.log.push(`new-leader:${leader}`),
    },
    ...overrides,
  });
  candidate.elector = elector;
  candidate.done = elector.run();
  return candidate as Candidate;
}

/** Seconds since the FakeClock's default start, for readable assertions. */
export function seconds(clock: FakeClock): number {
  return (clock.now() - Date.UTC(2026, 0, 1)) / 1000;
}
