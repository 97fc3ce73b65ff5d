import { defineQuestions } from "../question.js";

const notebook = "09-leader-election";

/** Questions for `notebooks/09-leader-election.ipynb`: Leases, the LeaderElector, failover and node heartbeats. */
export const leaderElection09 = defineQuestions([
  {
    id: "09-why-leader-election",
    notebook,
    section: "2. The problem: two replicas, no election",
    topic: "leader-election",
    difficulty: "basic",
    question:
      "You run three replicas of a controller for availability. Why not let all three reconcile, or split the keys between them?",
    answer: `If all three reconcile, every decision is made three times: a check-then-create is not atomic across processes,
so two replicas both see "missing" and both create (section 2 measured duplicates from just two replicas), and
every status write turns into a 409 fight. External side effects (a bucket, an email, a payment) are duplicated
for real.

Sharding (each replica owns part of the keys) does scale the work out, but then every replica must agree on who
owns what, and a dead replica's share must be handed over: a coordination problem of its own, with the same
failure detection at its core. A controller's work is usually small, so one active replica is enough: leader
election reduces the problem to "who is the one", and the standbys wait to take over. Whether they keep warm caches
meanwhile is a design choice: this workbook's replicas and kube-scheduler do, kube-controller-manager and (by default)
controller-runtime start their informers only after winning. The trade-off: one replica's throughput, and a failover
gap.`,
    keyPoints: [
      {
        point: "duplicate work and conflicting writes",
        terms: ["duplicate", "twice", "both create", "conflict", "409"],
      },
      { point: "check-then-act is not atomic across processes", terms: ["atomic", "race", "check-then"] },
      {
        point: "sharding needs its own coordination / reassignment",
        terms: ["shard", "reassign", "owns", "partition"],
      },
      {
        point: "standbys wait to take over (warm or cold caches)",
        terms: ["standby", "warm", "cold", "take over"],
      },
    ],
  },
  {
    id: "09-lease-fields",
    notebook,
    section: "3. Build it small: a Lease and `tryAcquireOrRenew`",
    topic: "leader-election",
    difficulty: "basic",
    question: "Which fields of a Lease does leader election use, and what does each one mean?",
    answer: `\`holderIdentity\` names the current leader (empty after a release). \`leaseDurationSeconds\` says how long the
others must wait, after they last saw the lease change, before they may take it. \`renewTime\` is when the holder
last renewed; \`acquireTime\` when it took the lease; \`leaseTransitions\` counts changes of hands.

The Lease holds no lock in the server: it is an ordinary object. What makes it a lock is the protocol around it
(everyone reads it, only writes conditioned on the resourceVersion they read, and respects the duration). 
Section 3 creates one by hand and shows a takeover only after a second without renewal.`,
    keyPoints: [
      { point: "holderIdentity is the leader", terms: ["holderidentity", "holder"] },
      {
        point: "leaseDurationSeconds is how long others wait",
        terms: ["leasedurationseconds", "duration", "wait"],
      },
      { point: "renewTime is the last renewal", terms: ["renewtime", "renew"] },
      {
        point: "an ordinary object: the protocol makes it a lock",
        terms: ["ordinary", "protocol", "optimistic", "resourceversion"],
      },
    ],
  },
  {
    id: "09-resource-version-race",
    notebook,
    section: "4. The forced race: what the resourceVersion check buys",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "Two candidates read the same expired Lease at the same moment and both write themselves in. What stops both from leading?",
    answer: `The write carries the \`resourceVersion\` the candidate read. The API server applies an update only if that
version is still current, so of two writes based on the same read, the first lands and the second gets **409
Conflict**: that candidate did not acquire. It is optimistic concurrency used as compare-and-swap.

Section 4 forces the interleaving with a barrier: with the version, exactly one winner; with a merge patch of the
spec (which names no resourceVersion, so the server applies it whatever changed), both candidates return "I lead"
while the Lease names only the last writer: split brain until the loser's next renewal. (A plain update
of a Lease without a resourceVersion is refused by kube-apiserver with 422.) Nothing else in the algorithm (timers,
jitter) can replace this check, because the two candidates cannot see each other's decision.`,
    keyPoints: [
      { point: "the update carries the resourceVersion read", terms: ["resourceversion", "version"] },
      { point: "the second write gets 409 Conflict", terms: ["409", "conflict"] },
      {
        point: "compare-and-swap / optimistic concurrency",
        terms: ["compare-and-swap", "cas", "optimistic"],
      },
      { point: "without it both believe they lead", terms: ["both", "split brain", "two leaders"] },
    ],
  },
  {
    id: "09-clock-skew",
    notebook,
    section: "3. Build it small: a Lease and `tryAcquireOrRenew`",
    topic: "leader-election",
    difficulty: "advanced",
    question:
      "The Lease holds a renewTime written by the leader's clock. How does client-go decide that a lease expired without trusting that clock?",
    answer: `It never compares \`renewTime\` with its own clock. Each candidate remembers **when it saw the record change** (any
change of the raw record, on its own clock: \`observedTime\`) and treats the lease as valid until \`observedTime +
leaseDurationSeconds\`. Only durations measured on one machine are compared, so clock *offset* between machines
does not matter; what must roughly agree is clock *rate* (how fast a second passes), which real clocks do.

The small version in section 3 compares \`renewTime\` with the local clock: a candidate whose clock runs 20 s ahead
would think every 15 s lease expired and grab it. The cost of client-go's way: a candidate that just started must
wait a full lease duration even for a lease that is long dead, since it has not seen it change.`,
    keyPoints: [
      {
        point: "expiry measured from when the candidate observed a change",
        terms: ["observed", "saw", "own clock", "local"],
      },
      {
        point: "never compares remote timestamps with the local clock",
        terms: ["never compare", "not compare", "skew", "offset"],
      },
      { point: "only clock rate must agree", terms: ["rate", "drift", "speed"] },
      { point: "a new candidate waits a full duration", terms: ["full", "new candidate", "restart", "wait"] },
    ],
  },
  {
    id: "09-timings",
    notebook,
    section: "5. The real one: `LeaderElector`, three replicas",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "What are leaseDurationMs, renewDeadlineMs and retryPeriodMs, and why must renewDeadlineMs be shorter than leaseDurationMs?",
    answer: `\`leaseDurationMs\` (15 s by default): how long standbys wait, after they last saw the lease change, before taking
it. \`renewDeadlineMs\` (10 s): how long the leader keeps failing to renew before it gives up and stops leading.
\`retryPeriodMs\` (2 s): the pause between attempts (standbys jitter theirs by up to 1.2 x more).

The ordering is the safety argument: the leader must stop before anyone can consider the lease expired (a lease
duration after they saw its last write). How much margin that leaves depends on where the deadline is counted.
client-go starts a fresh renewDeadlineMs for each renew round, and a round starts retryPeriodMs after the last success,
so a client-go leader may believe it leads for about retryPeriodMs + renewDeadlineMs after its last write: the margin is
leaseDurationMs - renewDeadlineMs - retryPeriodMs (15 - 10 - 2 = 3 s with the defaults) minus request latency. The
package's elector counts renewDeadlineMs from the start of its last successful renewal, so renewDeadlineMs <
leaseDurationMs suffices for any latency. Section 7 shows the package's rule: the leader stopped at its 0.7 s
deadline, the standbys took over after the 1 s lease ran out. Both reject configs where renewDeadlineMs <= 1.2 x
retryPeriodMs, since then a single jittered retry could miss the deadline.`,
    keyPoints: [
      { point: "leaseDurationMs: how long standbys wait", terms: ["leaseduration", "standby", "wait"] },
      {
        point: "renewDeadlineMs: how long the leader tries before giving up",
        terms: ["renewdeadline", "give up", "stops"],
      },
      {
        point: "retryPeriodMs: pause between attempts, jittered",
        terms: ["retryperiod", "jitter", "between attempts"],
      },
      {
        point: "leader stops before the lease can expire for others",
        terms: ["before", "expire", "ordering", "safety"],
      },
    ],
  },
  {
    id: "09-in-flight-work",
    notebook,
    section: "7. Break it: a leader that cannot renew",
    topic: "leader-election",
    difficulty: "advanced",
    question:
      "A leader loses its lease in the middle of a reconcile. What happens to the work it is doing, and what must your code do?",
    answer: `The elector aborts the leading signal (a cancelled context in Go) at the renew deadline; it cannot stop your code
for you. Your workers must check the signal and stop taking and finishing work; in section 7 the work loop saw the
abort and did no further item. client-go's own advice is stronger: exit the process (kube-controller-manager
does), so no goroutine lingers.

What was already sent can still land: a request in flight when the deadline fired (section 7's late renewal did).
Leader election is not fencing. If a stale write would do harm, guard the write itself: an update with the
resourceVersion you read fails if the new leader changed the object meanwhile, and reconcile being idempotent and
level-triggered means the new leader simply redoes whatever was half-done.`,
    keyPoints: [
      {
        point: "leadership ends by a cancelled signal/context",
        terms: ["signal", "context", "abort", "cancel"],
      },
      { point: "your code must stop (or the process exits)", terms: ["stop", "exit", "check"] },
      {
        point: "in-flight requests can still land: no fencing",
        terms: ["in flight", "in-flight", "fencing", "still land"],
      },
      {
        point: "guard writes with resourceVersion; idempotent reconcile redoes the rest",
        terms: ["resourceversion", "idempotent", "redo", "level"],
      },
    ],
  },
  {
    id: "09-release-on-stop",
    notebook,
    section: "5. The real one: `LeaderElector`, three replicas",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "Why should a controller release its Lease when it shuts down, and what does ReleaseOnCancel do?",
    answer: `Without a release, a stopped leader looks exactly like a crashed one: the standbys wait for the lease to expire,
so every rolling update leaves the controller leaderless for up to a lease duration (15 s by default). Section 5
measured both: the crash takeover took about a lease duration, the graceful one only a standby's next retry.

With \`ReleaseOnCancel\`, when the run context is cancelled the elector writes the Lease with an empty
\`holderIdentity\` (and a 1 s duration); standbys see a free lease and take it at their next attempt. The catch,
stated in client-go: you must make sure all the work guarded by the lease has finished before you cancel, otherwise
the new leader starts while the old one is still acting.`,
    keyPoints: [
      { point: "without release, standbys wait for expiry", terms: ["expire", "wait", "lease duration"] },
      { point: "release writes an empty holder", terms: ["empty", "holderidentity", "release"] },
      { point: "faster failover on rolling updates", terms: ["rolling", "faster", "graceful", "next retry"] },
      {
        point: "finish guarded work before cancelling",
        terms: ["finish", "before cancel", "complete", "two"],
      },
    ],
  },
  {
    id: "09-failover-not-instant",
    notebook,
    section: "8. Why failover is never instant",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "Why can't a standby take over the moment the leader dies? How would you make failover faster, and at what cost?",
    answer: `From outside, a dead leader and a slow one look the same: both simply stop renewing. The only safe rule is to
wait until the lease has run out, so a takeover comes between about \`leaseDurationMs - retryPeriodMs\` and
\`leaseDurationMs + 4.4 x retryPeriodMs\` after a crash (section 6's 40 seeded trials all landed in that window): with
the defaults, 13 s to 23.8 s.

Faster: shorten the lease duration (and renew deadline and retry period with it), or release on clean shutdown
(section 5). The costs: more writes (one renewal per retry period per elector, forever), and a healthy leader that
hits a GC pause, a slow API server or a network blip longer than the renew deadline loses its lease and its work
restarts elsewhere. The defaults trade a worst case of about 24 s of failover for tolerance of hiccups, and they are
not free: the leader writes the Lease every 2 s (30 a minute), each standby reads it every 2 to 4.4 s, so a few
replicas cost tens of requests a minute.`,
    keyPoints: [
      { point: "dead and slow look the same", terms: ["slow", "cannot tell", "dead", "same"] },
      { point: "must wait for the lease to expire", terms: ["expire", "wait"] },
      {
        point: "bounded by leaseDurationMs plus retry jitter",
        terms: ["leaseduration", "retryperiod", "jitter", "bound"],
      },
      {
        point: "shorter leases cost writes and false failovers",
        terms: ["more writes", "requests", "false", "pause", "flap"],
      },
    ],
  },
  {
    id: "09-jitter",
    notebook,
    section: "6. Failover, measured over many trials",
    topic: "leader-election",
    difficulty: "basic",
    question: "Why are the standbys' retry attempts jittered?",
    answer: `Standbys that retried on exactly the same period would hit the API server in lockstep: after an expiry they would
all read, all write, and all but one would get a 409, every time. Jitter (client-go waits retryPeriodMs plus up to
1.2 x retryPeriodMs more) spreads the attempts so usually one candidate tries first and wins cleanly, and the load
on the API server is spread too.

The cost is a wider failover window: section 6 shows the spread of 40 seeded trials, part of which comes from the
jitter. Correctness never depends on jitter (the resourceVersion check does that); it only makes contention rare.`,
    keyPoints: [
      { point: "avoid lockstep retries", terms: ["lockstep", "same time", "thundering", "synchron"] },
      { point: "fewer 409s and spread load", terms: ["409", "conflict", "load"] },
      { point: "widens the failover window", terms: ["spread", "wider", "window", "variance"] },
      {
        point: "correctness comes from the resourceVersion, not jitter",
        terms: ["resourceversion", "correct"],
      },
    ],
  },
  {
    id: "09-lease-vs-configmap",
    notebook,
    section: "3. Build it small: a Lease and `tryAcquireOrRenew`",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "Older controllers elected a leader with an annotation on a ConfigMap or an Endpoints object. Why did Kubernetes move to Leases?",
    answer: `Every renewal is a write. On an Endpoints object, every write woke every watcher of Endpoints in the cluster
(kube-proxy on every node, for instance) every couple of seconds, for an object that served no traffic. ConfigMaps
are watched widely too, and both are larger objects holding the record as a JSON annotation. A Lease is a small,
dedicated object that only the candidates care about, with typed fields (holderIdentity, renewTime...).

Migration went through "multi-locks" (write both the old object and a Lease) so mixed versions of a component
agreed on one leader during an upgrade; client-go then dropped the ConfigMap and Endpoints locks and kept only the
Lease lock that section 3 builds by hand.`,
    keyPoints: [
      {
        point: "renewals woke every watcher of Endpoints/ConfigMaps",
        terms: ["watch", "kube-proxy", "wake", "load"],
      },
      {
        point: "Lease is small and dedicated, typed fields",
        terms: ["small", "dedicated", "typed", "lightweight"],
      },
      { point: "the record was a JSON annotation", terms: ["annotation"] },
      { point: "migration via multi-lock", terms: ["multilock", "multi-lock", "both", "migration"] },
    ],
  },
  {
    id: "09-node-leases",
    notebook,
    section: "9. Node Leases: the same primitive as a heartbeat",
    topic: "leader-election",
    difficulty: "intermediate",
    question:
      "What are the Leases in kube-node-lease, and why did Kubernetes add them when Nodes already had a status?",
    answer: `Each kubelet owns a Lease named after its node and renews it every 10 s (a quarter of its 40 s duration): that
renewal is the node's **heartbeat**. Before, the heartbeat was the Node's status, a large object (conditions,
images, addresses) written every 10 s by every node, which cost etcd and every Node watcher a lot in big clusters.
Now the kubelet posts the status only when something changed or every few minutes, and the small Lease carries
the liveness signal.

It is the same primitive as leader election with one holder that never changes: nobody competes, the Lease only
says "still alive". Section 9 pauses one simulated kubelet; its Lease stops changing and the monitor marks it
stale while the others stay fresh.`,
    keyPoints: [
      { point: "one Lease per node, renewed by the kubelet", terms: ["kubelet", "per node", "renew"] },
      { point: "it is the heartbeat", terms: ["heartbeat", "liveness", "alive"] },
      {
        point: "cheaper than writing the whole Node status",
        terms: ["status", "cheaper", "smaller", "etcd", "scale"],
      },
      {
        point: "same primitive, no competition",
        terms: ["same", "primitive", "no competition", "one holder"],
      },
    ],
  },
  {
    id: "09-node-heartbeat-missed",
    notebook,
    section: "9. Node Leases: the same primitive as a heartbeat",
    topic: "leader-election",
    difficulty: "advanced",
    question:
      "A node's Lease stops being renewed. Walk through what the control plane does, and why it waits before acting.",
    answer: `The node lifecycle controller (in kube-controller-manager) records, per node, when it last saw the Lease change on
its own clock. Once that is older than \`--node-monitor-grace-period\` (40 s for a long time, 50 s in recent
releases), it sets the Node's Ready condition to Unknown and taints it (\`node.kubernetes.io/unreachable\`); Pods
that do not tolerate the taint are evicted after their toleration time (300 s by default) and recreated elsewhere
by their controllers.

It waits because it cannot tell a dead node from a partitioned one or a slow API path, exactly like a standby
cannot tell a dead leader from a slow one (section 8). Acting at once would evict healthy workloads on every
hiccup, and a partitioned node may still be running its Pods: a StatefulSet Pod recreated too early could run twice.
Section 9's monitor shows the first step: stale after the grace period, judged by observation time.`,
    keyPoints: [
      {
        point: "node lifecycle controller watches the Lease",
        terms: ["node lifecycle", "controller-manager", "node controller"],
      },
      { point: "grace period before Ready=Unknown", terms: ["grace", "unknown", "notready", "40", "50"] },
      { point: "taint and eviction after a toleration", terms: ["taint", "evict", "toleration"] },
      {
        point: "cannot tell dead from partitioned; avoid double-running",
        terms: ["partition", "dead", "twice", "hiccup"],
      },
    ],
  },
  {
    id: "09-renew-deadline-expired-leader",
    notebook,
    section: "7. Break it: a leader that cannot renew",
    topic: "leader-election",
    difficulty: "advanced",
    question:
      "During a network partition, the old leader is cut off while the others still reach the API server. Can there be two leaders? Under which assumptions?",
    answer: `Not if the assumptions hold. The cut-off leader cannot renew and stops leading at its renew deadline; the others
take over only a lease duration after they saw its last renewal, on their clocks. How much earlier the old leader
stops depends on the implementation. client-go gives each renew round a fresh renewDeadlineMs, and a round starts
retryPeriodMs after the last success, so its leader may go on for about retryPeriodMs + renewDeadlineMs after its last
write: the margin is leaseDurationMs - renewDeadlineMs - retryPeriodMs (3 s with the defaults) minus request latency, and
a slower request than that can give two leaders for a moment. The package's elector counts the deadline from the
start of its last successful renewal, so renewDeadlineMs < leaseDurationMs is enough whatever the latency; section 7
measured no overlap.

The assumptions: clocks run at about the same rate (not the same time), the old leader's process actually honours
the abort (no work continues after the signal), and writes already in flight are harmless or guarded. A process
paused (GC, SIGSTOP, a VM freeze) longer than the margin can wake up believing it still leads for a moment: only
fencing (a token checked by the resource being written, such as a resourceVersion precondition) closes that gap.`,
    keyPoints: [
      {
        point: "old leader stops at its renew deadline",
        terms: ["renew deadline", "renewdeadline", "stops"],
      },
      {
        point: "client-go's margin is leaseDurationMs - renewDeadlineMs - retryPeriodMs",
        terms: ["margin", "retryperiod", "per round", "3 s"],
      },
      {
        point: "others wait a lease duration from the last renewal they saw",
        terms: ["lease duration", "leaseduration", "saw"],
      },
      { point: "assumes clock rate, honoured abort", terms: ["rate", "honour", "honor", "abort", "assum"] },
      { point: "pauses break it: fencing needed", terms: ["pause", "gc", "fencing", "freeze"] },
    ],
  },
]);
