/**
 * Grader of lab 09-leader-election: the learner's `LeaseCandidate` against an in-memory Lease store with
 * kube-apiserver's compare-and-swap rule, on fake clocks, no cluster: acquisition, renewal, takeover after
 * expiry, clock skew, a hanging renewal, and seeded split-brain trials (support/lease-trials.ts). It holds the
 * candidate to client-go's `tryAcquireOrRenew` and to the rule that keeps leaders single: stop before others may
 * take over.
 */

import { CoordinationV1Api } from "@kubernetes/client-node";
import { type Clock, FakeClock } from "../../clock/index.js";
import { InMemoryLeaseStore, type LeaseEndpoint, type LeaseObject } from "../../leaderelection/index.js";
import { formatMicroTime } from "../../leaderelection/leader-election-record.js";
import { CoordinationLeaseEndpoint } from "../../leaderelection/lease-lock.js";
import { buildGoLab, isGoTrack } from "../grading/go-build.js";
import { type Check, defineLab } from "../grading/index.js";
import {
  Election,
  gradingCluster,
  importLab,
  loopingCandidate,
  monotonicMs,
  runTrials,
  sleep,
  TRIAL_LEASE,
  TRIAL_TIMINGS,
  withScenario,
} from "./support/index.js";

/** What `labs/09-leader-election/lease-candidate.ts` must export (its README): one candidate of an election. */
export interface CandidateModule {
  LeaseCandidate: new (config: CandidateConfig) => Candidate;
}

/** Everything the grader gives a candidate: its Lease store and Lease, its identity, its timings, its clock. */
export interface CandidateConfig {
  store: LeaseEndpoint;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  clock: Clock;
}

/** The learner's candidate: one attempt at a time (client-go's `tryAcquireOrRenew`), and what it believes. */
export interface Candidate {
  tryAcquireOrRenew(): Promise<boolean>;
  isLeader(): boolean;
}

const LEASE_MS = TRIAL_TIMINGS.leaseDurationMs;
const DEADLINE_MS = TRIAL_TIMINGS.renewDeadlineMs;
const TRIALS = 200;

/** The requirements (README order) and their hints, the same on both tracks. */
const REQUIREMENTS = {
  LONE: {
    requirement: "a lone candidate acquires a free Lease, writes itself as holder, and renews it",
    hint: "create the Lease when read says it does not exist; renew by replacing the Lease you read with a new renewTime, its resourceVersion included (the API refuses a Lease update without one)",
  },
  THREE: {
    requirement: "of three candidates trying at once, exactly one leads",
    hint: "a create or a replace that fails (409) means another candidate won: return false",
  },
  TAKEOVER: {
    requirement:
      "a valid lease held by another candidate is taken only after leaseDurationMs without renewal",
    hint: "remember when you last saw the Lease change, on your own clock, and wait leaseDurationMs from then",
  },
  STALE: {
    requirement:
      "a write based on a stale resourceVersion loses (409), and the loser does not believe it leads",
    hint: "send back the Lease object you decided on, resourceVersion included, and return false on a 409; the two usual causes of two winners: a replace without the resourceVersion you read, or a re-read of the Lease just before writing (which overwrites a rival that won in between)",
  },
  DEADLINE: {
    requirement: "a leader that cannot renew stops believing it leads once renewDeadlineMs has passed",
    hint: "isLeader() must depend on time since the last successful renewal started, not on a call returning",
  },
  SKEW: {
    requirement:
      "expiry is judged on the candidate's own clock, from when it saw the Lease change (clock skew)",
    hint: "never compare renewTime (written by another machine's clock) with your own clock",
  },
  SPLIT: {
    requirement: `split brain: ${TRIALS} seeded trials of crashes, partitions and slow renewals never show two leaders, and someone leads once the faults are over`,
    hint: "two usual causes: believing you lead longer than renewDeadlineMs after the START of your last successful attempt (time it from when the attempt began, not when its answer came), or a write that does not carry the resourceVersion you decided on (dropped, or the Lease re-read just before writing)",
  },
} as const;

const load = (dir: string) => importLab<CandidateModule>(dir, "lease-candidate.js");

/** A world for one check: a fake clock, an in-memory Lease store, and a way to make candidates. */
function world(mod: CandidateModule) {
  const clock = new FakeClock();
  const store = new InMemoryLeaseStore();
  const make = (identity: string, options: { store?: LeaseEndpoint; clock?: Clock } = {}): Candidate =>
    new mod.LeaseCandidate({
      store: options.store ?? store,
      ...TRIAL_LEASE,
      identity,
      leaseDurationMs: LEASE_MS,
      renewDeadlineMs: DEADLINE_MS,
      clock: options.clock ?? clock,
    });
  const holder = () =>
    store.peek(TRIAL_LEASE.namespace, TRIAL_LEASE.name)?.spec.holderIdentity ?? "(no Lease)";
  return { clock, store, make, holder };
}

function expect(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export default defineLab({
  title: "leader election over a Lease, never two leaders at once",
  async checks(dir) {
    if (isGoTrack(dir)) return goChecks(dir);
    const mod = await load(dir);
    return [
      {
        ...REQUIREMENTS.LONE,
        run: async () => {
          const { clock, store, make, holder } = world(mod);
          const a = make("a");
          expect("first attempt of a lone candidate", await a.tryAcquireOrRenew(), true);
          expect("holderIdentity", holder(), "a");
          expect("a.isLeader() after acquiring", a.isLeader(), true);
          const first = store.peek(TRIAL_LEASE.namespace, TRIAL_LEASE.name);
          expect("leaseDurationSeconds written", first?.spec.leaseDurationSeconds, LEASE_MS / 1000);
          await clock.advance(500);
          expect("renewal 500 ms later", await a.tryAcquireOrRenew(), true);
          const renewed = store.peek(TRIAL_LEASE.namespace, TRIAL_LEASE.name);
          if (renewed?.spec.renewTime === first?.spec.renewTime) throw new Error("renewTime did not move");
        },
      },
      {
        ...REQUIREMENTS.THREE,
        run: async () => {
          const { make, holder } = world(mod);
          const cs = ["a", "b", "c"].map((id) => make(id));
          const won = await Promise.all(cs.map((c) => c.tryAcquireOrRenew()));
          const winners = ["a", "b", "c"].filter((_, i) => won[i]);
          expect("candidates whose attempt returned true", winners.length, 1);
          expect("the stored holder", holder(), winners[0]);
          expect("candidates that believe they lead", cs.filter((c) => c.isLeader()).length, 1);
        },
      },
      {
        ...REQUIREMENTS.TAKEOVER,
        run: async () => {
          const { clock, make, holder } = world(mod);
          const a = make("a");
          const b = make("b");
          await a.tryAcquireOrRenew();
          expect("b's attempt while a's lease is fresh", await b.tryAcquireOrRenew(), false);
          await clock.advance(LEASE_MS - 100);
          expect(
            `b's attempt ${LEASE_MS - 100} ms later (not expired yet)`,
            await b.tryAcquireOrRenew(),
            false,
          );
          expect("b.isLeader() before expiry", b.isLeader(), false);
          await clock.advance(200);
          expect(
            `b's attempt ${LEASE_MS + 100} ms after a's last renewal`,
            await b.tryAcquireOrRenew(),
            true,
          );
          expect("holder after the takeover", holder(), "b");
          expect("a's attempt after b took over", await a.tryAcquireOrRenew(), false);
          expect("a.isLeader() after b took over", a.isLeader(), false);
        },
      },
      {
        ...REQUIREMENTS.STALE,
        run: async () => {
          const { clock, store, make, holder } = world(mod);
          // x and y both read dead's expired Lease before either writes; then x's whole attempt runs, and only
          // after it ended does any further call of y's go out (its write, or a re-read).
          let racing = false;
          const arrived = new Set<string>();
          let bothRead = () => {};
          const barrier = new Promise<void>((resolve) => {
            bothRead = resolve;
          });
          let xDone = () => {};
          const xFinished = new Promise<void>((resolve) => {
            xDone = resolve;
          });
          const gated = (who: "x" | "y"): LeaseEndpoint => {
            let reads = 0;
            /** y's calls after its first read wait until x's attempt has ended. */
            const afterX = async () => {
              if (racing && who === "y") await xFinished;
            };
            return {
              read: async (namespace, name) => {
                if (!racing) return store.read(namespace, name);
                if (reads++ === 0) {
                  const lease = await store.read(namespace, name);
                  arrived.add(who);
                  if (arrived.size === 2) bothRead();
                  await barrier;
                  return lease;
                }
                await afterX();
                return store.read(namespace, name); // a re-read sees what was written in between
              },
              create: async (lease: LeaseObject) => {
                await afterX();
                return store.create(lease);
              },
              replace: async (lease: LeaseObject) => {
                await afterX();
                return store.replace(lease);
              },
            };
          };
          const dead = make("dead");
          await dead.tryAcquireOrRenew();
          const x = make("x", { store: gated("x") });
          const y = make("y", { store: gated("y") });
          await Promise.all([x.tryAcquireOrRenew(), y.tryAcquireOrRenew()]); // both see dead's lease
          await clock.advance(LEASE_MS + 500);
          racing = true;
          const first = x.tryAcquireOrRenew().finally(() => xDone());
          const won = await Promise.all([first, y.tryAcquireOrRenew()]);
          expect("attempts that returned true (x wrote first, y's write came after)", won, [true, false]);
          expect("the stored holder", holder(), "x");
          expect("y.isLeader() after losing", y.isLeader(), false);
        },
      },
      {
        ...REQUIREMENTS.DEADLINE,
        run: async () => {
          const { clock, store, make } = world(mod);
          let cut = false;
          let heal = () => {};
          const healed = new Promise<void>((resolve) => {
            heal = resolve;
          });
          const hang = async <T>(op: () => Promise<T>): Promise<T> => {
            if (cut) {
              await healed;
              throw new Error("partitioned");
            }
            return op();
          };
          const partitioned: LeaseEndpoint = {
            read: (n, m) => hang(() => store.read(n, m)),
            create: (l) => hang(() => store.create(l)),
            replace: (l) => hang(() => store.replace(l)),
          };
          const a = make("a", { store: partitioned });
          expect("a acquires", await a.tryAcquireOrRenew(), true);
          cut = true;
          const hanging = a.tryAcquireOrRenew(); // hangs: the API is unreachable
          await clock.advance(DEADLINE_MS / 2);
          expect(`a.isLeader() ${DEADLINE_MS / 2} ms after its last renewal`, a.isLeader(), true);
          await clock.advance(DEADLINE_MS / 2 + 1);
          expect(`a.isLeader() ${DEADLINE_MS + 1} ms after, its renewal still hanging`, a.isLeader(), false);
          heal();
          expect("the hanging attempt's result", await hanging, false);
          expect("a.isLeader() after the failed renewal", a.isLeader(), false);
        },
      },
      {
        ...REQUIREMENTS.SKEW,
        run: async () => {
          const { clock, make, holder } = world(mod);
          const ahead: Clock = {
            now: () => clock.now() + 2 * LEASE_MS, // b's clock runs two lease durations ahead
            setTimer: (ms, cb) => clock.setTimer(ms, cb),
            sleep: (ms, signal) => clock.sleep(ms, signal),
          };
          const a = make("a");
          const b = make("b", { clock: ahead });
          await a.tryAcquireOrRenew();
          for (let i = 0; i < 10; i++) {
            expect(
              `b's attempt while a renews every 500 ms (round ${i + 1})`,
              await b.tryAcquireOrRenew(),
              false,
            );
            await clock.advance(500);
            expect(`a's renewal (round ${i + 1})`, await a.tryAcquireOrRenew(), true);
          }
          // a stops renewing: b takes over after a lease duration on its own clock.
          let took = false;
          for (let i = 0; i < 10 && !took; i++) {
            await clock.advance(500);
            took = await b.tryAcquireOrRenew();
          }
          expect("b took over once a stopped renewing", holder(), "b");
        },
      },
      {
        ...REQUIREMENTS.SPLIT,
        timeout: 120_000,
        run: async () => {
          const result = await runTrials(TRIALS, (context) =>
            loopingCandidate(
              context,
              new mod.LeaseCandidate({
                store: context.store,
                ...TRIAL_LEASE,
                identity: context.identity,
                leaseDurationMs: context.timings.leaseDurationMs,
                renewDeadlineMs: context.timings.renewDeadlineMs,
                clock: context.clock,
              }),
            ),
          );
          if (result.errors.length > 0)
            throw new Error(`isLeader() threw: ${result.errors.slice(0, 2).join("; ")}`);
          if (result.splitBrains.length > 0) {
            throw new Error(
              `${result.splitBrains.length} moments with two leaders, e.g. ${result.splitBrains.slice(0, 3).join("; ")}`,
            );
          }
          if (result.leaderless.length > 0) {
            throw new Error(
              `no leader after the faults ended in ${result.leaderless.length} of ${TRIALS} trials (seeds ${result.leaderless.slice(0, 5).join(", ")})`,
            );
          }
        },
      },
    ];
  },
  teardown: () => cluster.stop(),
});

/** The Go track's cluster, started by its first check (the TypeScript track needs none). */
const cluster = gradingCluster({ prefix: "lab09" });

/** The Lease the Go track's candidates compete for, in each check's namespace. */
const GO_LEASE = "leader";

/** A check's election of Go candidates on a fresh namespace, closed whatever happens. */
async function withElection(dir: string, label: string, body: (e: Election) => Promise<void>): Promise<void> {
  const opening = (async () => {
    const { binary } = await buildGoLab(dir);
    const c = await cluster.get();
    const namespace = await cluster.newNamespace(label);
    return new Election({
      binary,
      kubeConfig: c.kubeConfig,
      kubeconfigPath: c.kubeconfigPath,
      namespace,
      leaseName: GO_LEASE,
      timings: TRIAL_TIMINGS,
    });
  })();
  await withScenario(opening, body);
}

/** The Lease API of the grader itself, for the Lease of `e`: to hold the Lease as another candidate would. */
function graderLease(e: Election) {
  const endpoint = new CoordinationLeaseEndpoint(e.place.kubeConfig.makeApiClient(CoordinationV1Api));
  const { namespace } = e.place;
  return {
    read: () => endpoint.read(namespace, GO_LEASE),
    /** Creates the Lease held by `holder`, or renews it if it exists; returns when the write was sent. */
    async hold(holder: string): Promise<number> {
      const now = formatMicroTime(Date.now());
      const current = await endpoint.read(namespace, GO_LEASE);
      const sentAt = monotonicMs();
      const spec = { holderIdentity: holder, leaseDurationSeconds: LEASE_MS / 1000, renewTime: now };
      if (current) await endpoint.replace({ ...current, spec: { ...current.spec, ...spec } });
      else
        await endpoint.create({
          metadata: { namespace, name: GO_LEASE },
          spec: { ...spec, acquireTime: now, leaseTransitions: 0 },
        });
      return sentAt;
    },
  };
}

/** How long a Go candidate process may take to come up and act (a start, a first request). */
const GO_START_MS = 15_000;

/** How late the DEADLINE check answers a Go candidate's successful renewal (less than renewDeadlineMs). */
const LATE_ANSWER_MS = 1000;

/**
 * The grader holds the Lease as "other" and renews it every half second for `renewals` rounds while candidate b
 * (with `clockSkewMs`) runs, then stops renewing: b must not lead before leaseDurationMs after the Lease last
 * changed, and must take over after that.
 */
async function takeoverOnlyAfterExpiry(e: Election, renewals: number, clockSkewMs = 0): Promise<void> {
  const lease = graderLease(e);
  let lastChange = await lease.hold("other");
  const b = await e.start("b", { clockSkewMs });
  for (let i = 0; i < renewals; i++) {
    await sleep(TRIAL_TIMINGS.retryPeriodMs);
    if (b.beliefs().length > 0)
      throw new Error(`b led while another candidate renewed the Lease (round ${i + 1})`);
    lastChange = await lease.hold("other");
  }
  await e.waitFor(
    "b taking over once the Lease was no longer renewed",
    () => b.leading(),
    LEASE_MS + GO_START_MS,
  );
  const [took] = b.beliefs();
  const waited = (took?.from ?? 0) - lastChange;
  if (waited < LEASE_MS)
    throw new Error(
      `b led ${Math.round(waited)} ms after the Lease last changed; it must wait leaseDurationMs (${LEASE_MS} ms)`,
    );
  expect("holderIdentity after the takeover", (await lease.read())?.spec.holderIdentity, "b");
}

/** The checks of the Go track: the same requirements, each candidate a process of the learner's program. */
function goChecks(dir: string): Check[] {
  return [
    {
      ...REQUIREMENTS.LONE,
      run: () =>
        withElection(dir, "lone", async (e) => {
          const a = await e.start("a");
          await e.waitFor("a leading", () => a.leading(), GO_START_MS);
          const lease = graderLease(e);
          const first = await lease.read();
          expect("holderIdentity", first?.spec.holderIdentity, "a");
          expect("leaseDurationSeconds written", first?.spec.leaseDurationSeconds, LEASE_MS / 1000);
          await e.waitFor(
            "a renewal of the Lease (a new renewTime)",
            async () => (await lease.read())?.spec.renewTime !== first?.spec.renewTime,
            GO_START_MS,
          );
          expect("holderIdentity after renewing", (await lease.read())?.spec.holderIdentity, "a");
        }),
    },
    {
      ...REQUIREMENTS.THREE,
      run: () =>
        withElection(dir, "three", async (e) => {
          // Each candidate's first write waits until all three have one under way: they race for real.
          let pending = 0;
          let go = () => {};
          const allThere = new Promise<void>((resolve) => {
            go = resolve;
          });
          const ids = ["a", "b", "c"];
          const cs = await Promise.all(
            ids.map((id) => {
              let first = true;
              return e.start(id, {
                proxied: true,
                leaseGate: async (verb, stage) => {
                  if (stage !== "request" || !first || (verb !== "create" && verb !== "update")) return;
                  first = false;
                  if (++pending === ids.length) go();
                  await allThere;
                },
              });
            }),
          );
          await e.waitFor("one candidate leading", () => cs.some((c) => c.leading()), GO_START_MS);
          await e.waitFor("all three candidates' first writes", () => pending === ids.length, GO_START_MS);
          await sleep(LEASE_MS / 2);
          e.expectOneLeaderAtATime();
          // A leader may lapse for a moment on a busy machine (a renewal slower than its retry period): wait for
          // one believer rather than sample once; two at once is judged over the whole history above.
          const leaders = () => cs.filter((c) => c.leading()).map((c) => c.identity);
          await e.waitFor("exactly one candidate believing it leads", () => leaders().length === 1, LEASE_MS);
          const [leader] = leaders();
          e.expectOneLeaderAtATime();
          expect("the stored holder", (await graderLease(e).read())?.spec.holderIdentity, leader);
        }),
    },
    {
      ...REQUIREMENTS.TAKEOVER,
      run: () => withElection(dir, "takeover", (e) => takeoverOnlyAfterExpiry(e, 6)),
    },
    {
      ...REQUIREMENTS.STALE,
      run: () =>
        withElection(dir, "stale", async (e) => {
          // A Lease held by "dead", which never renews. y reads it first; the answers of y's reads are held
          // back until x has taken the Lease over, so y decides on the resourceVersion from before x's write.
          await graderLease(e).hold("dead");
          const y = await e.start("y", { proxied: true });
          const yProxy = e.proxy(y.identity);
          await e.waitFor(
            "y reading the Lease",
            () => yProxy.leaseRequests.some((r) => r.verb === "get"),
            GO_START_MS,
          );
          const x = await e.start("x", { proxied: true });
          const xProxy = e.proxy(x.identity);
          const xWrote = () => xProxy.leaseRequests.some((r) => r.verb === "update" && r.status < 300);
          let closed = false;
          yProxy.leaseGate = async (verb, stage) => {
            if (stage !== "answer" || verb !== "get") return;
            while (!xWrote() && !closed) await sleep(10);
          };
          try {
            await e.waitFor("x taking over dead's expired Lease", xWrote, LEASE_MS + GO_START_MS);
            const yWrite = () => yProxy.leaseRequests.find((r) => r.verb === "update");
            await e.waitFor(
              "y writing the Lease it read before x took over",
              () => yWrite() !== undefined,
              LEASE_MS,
            );
            expect("status of y's write based on the stale resourceVersion", yWrite()?.status, 409);
            await sleep(TRIAL_TIMINGS.retryPeriodMs);
            e.expectOneLeaderAtATime();
            expect("y's beliefs that it led", y.beliefs().length, 0);
            expect("the stored holder", (await graderLease(e).read())?.spec.holderIdentity, "x");
          } finally {
            closed = true;
          }
        }),
    },
    {
      ...REQUIREMENTS.DEADLINE,
      run: () =>
        withElection(dir, "deadline", async (e) => {
          const a = await e.start("a", { proxied: true });
          const proxy = e.proxy(a.identity);
          await e.waitFor("a leading", () => a.leading(), GO_START_MS);
          // a's next successful renewal is applied but answered a second late; then its Lease requests hang.
          let answeredAt: number | undefined;
          proxy.leaseGate = async (verb, stage) => {
            const succeeded = (proxy.leaseRequests.at(-1)?.status ?? 500) < 300; // recorded before the answer
            if (stage !== "answer" || verb !== "update" || !succeeded || answeredAt !== undefined) return;
            answeredAt = Number.POSITIVE_INFINITY;
            await sleep(LATE_ANSWER_MS);
            proxy.cutLeases(true, "hang");
            answeredAt = monotonicMs();
          };
          await e.waitFor("a's late renewal", () => answeredAt !== undefined, LEASE_MS);
          // a may stop believing while its answer is held back (its previous renewal ran out) and believe again
          // once the answer comes; the belief judged is the last one, which cannot end before the answer has come
          // and renewDeadlineMs have passed (a wrong answer's) or ends earlier (a right one's).
          await e.waitFor(
            "the late answer, then renewDeadlineMs",
            () => monotonicMs() > (answeredAt ?? 0) + DEADLINE_MS + 200,
            LEASE_MS + LATE_ANSWER_MS + DEADLINE_MS,
          );
          await e.waitFor("a stopping to believe it leads", () => !a.leading(), DEADLINE_MS + GO_START_MS);
          const renewed = proxy.leaseRequests.filter((r) => r.verb === "update" && r.status < 300).at(-1);
          const stopped = Math.max(...a.beliefs().map((b) => b.to ?? 0));
          const after = stopped - (renewed?.arrivedAt ?? 0);
          if (after > DEADLINE_MS)
            throw new Error(
              `a still believed it led ${Math.round(after)} ms after its last successful renewal reached the API (renewDeadlineMs: ${DEADLINE_MS}); its answer came ${LATE_ANSWER_MS} ms late`,
            );
        }),
    },
    {
      ...REQUIREMENTS.SKEW,
      run: () => withElection(dir, "skew", (e) => takeoverOnlyAfterExpiry(e, 10, 2 * LEASE_MS)),
    },
    {
      ...REQUIREMENTS.SPLIT,
      notApplicable:
        "the trials run a minute of fake time each, in milliseconds; a Go process lives on the real clock (the checks above put it through each fault one at a time)",
      run: () => {},
    },
  ];
}
