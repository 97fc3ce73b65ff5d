import { defineQuestions } from "../question.js";

const notebook = "16-the-controllers-you-already-run";
const s1 = "1. A ReplicaSet controller on the package";
const s2 = "2. The naive controller creates twice";
const s3 = "3. Expectations: remember your own writes";
const s4 = "4. Slow start: when every create fails";
const s5 = "5. Which Pod goes first on a scale-down";
const s6 = "6. The real ones: a Deployment rolls out through ReplicaSets";

/** Questions for `notebooks/16-the-controllers-you-already-run.ipynb`: kube-controller-manager's ReplicaSet and Deployment controllers. */
export const builtinControllers16 = defineQuestions([
  {
    id: "16-kcm-what",
    notebook,
    section: s1,
    topic: "operators",
    difficulty: "basic",
    question: "What is kube-controller-manager, and how are its controllers built?",
    answer: `One process that runs most of Kubernetes' built-in controllers (Deployment, ReplicaSet, Job, CronJob, DaemonSet,
StatefulSet, node lifecycle, EndpointSlice, namespace, garbage collector, ServiceAccount and more; about 45,
chosen with --controllers). They are written with client-go exactly as this path builds a controller: one shared
informer factory for the whole process, an event handler per controller that turns events into keys, a
rate-limited work queue, workers that run a level-triggered sync per key, and owner references from what they
create to what asked for it. The process runs its controllers only while it holds the Lease
kube-system/kube-controller-manager, so a second replica stands by.

Section 1 builds the ReplicaSet controller on the package with the same pieces; notebook 05's section 9 has the
table of controllers and what each watches and owns.`,
    keyPoints: [
      {
        point: "one process, many built-in controllers",
        terms: ["one process", "built-in", "deployment", "replicaset"],
      },
      { point: "client-go informers, queues, workers", terms: ["informer", "queue", "client-go", "worker"] },
      { point: "shared informer factory", terms: ["shared", "factory"] },
      { point: "leader election on a Lease", terms: ["lease", "leader"] },
    ],
  },
  {
    id: "16-double-create",
    notebook,
    section: s2,
    topic: "cache",
    difficulty: "intermediate",
    question:
      "A controller counts its Pods in its informer cache and creates the missing ones. Why can it create too many, and what happens next?",
    answer: `Because the cache learns about the controller's own creates only when their watch events arrive. A sync that runs
in between (woken by the first of those events, by a resync, by an edit) counts too few and creates the difference
again. In section 2 the naive controller created 5, was woken by the first Pod event with 1 Pod in its cache and
created 4 more: 9 Pods for a ReplicaSet of 5. When the cache caught up, the same rule deleted 4.

The damage is not in the controller: each extra Pod is scheduled, pulls its image, starts, and is killed. The rule
"make the count right" was fine; what it counted was stale. Reading through to the API server on every sync would
fix it at the cost of a LIST per sync, which is what caches exist to avoid; expectations fix it for free.`,
    keyPoints: [
      {
        point: "the cache lags the controller's own creates",
        terms: ["lag", "own create", "not yet", "stale", "behind"],
      },
      {
        point: "a sync in between counts too few and creates again",
        terms: ["again", "twice", "too few", "duplicate"],
      },
      { point: "then deletes the surplus: churn", terms: ["delete", "surplus", "churn"] },
      { point: "fix: expectations, not an uncached read per sync", terms: ["expectation"] },
    ],
  },
  {
    id: "16-expectations-how",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "How do the ReplicaSet controller's expectations work?",
    answer: `Per ReplicaSet key, the controller keeps counts of creations and deletions it has made but not yet seen in its
cache. Before creating n Pods the sync calls ExpectCreations(key, n); the Pod informer's add handler calls
CreationObserved(key) for every Pod it sees (it runs after the cache holds the Pod), and the delete handler
DeletionObserved. At the start of a sync SatisfiedExpectations(key) is true when there is no record, when both
counts are down to zero, or when the record is older than 5 minutes; only then does the sync create or delete.
Status is still written on every sync.

Section 3: the sync after the first event found "4 creates still expected" and did nothing; the last event brought
the count to zero, that sync counted 5 and sent nothing: exactly 5 creates and no delete.`,
    keyPoints: [
      { point: "expect n creates before creating", terms: ["expectcreations", "expect", "before"] },
      {
        point: "lowered when the informer observes each one",
        terms: ["observed", "informer", "handler", "lower"],
      },
      { point: "sync skips create/delete until satisfied", terms: ["skip", "satisfied", "wait"] },
      { point: "per key, in memory", terms: ["per key", "per replicaset", "memory"] },
    ],
  },
  {
    id: "16-expectations-timeout",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "Why do the ReplicaSet controller's expectations expire after 5 minutes? What would happen without it?",
    answer: `Because the event that would lower them may never come: a Pod created and deleted before the watch delivered it, a
watch that broke and relisted (a relist delivers the current state, not every event in between), a bug in the
bookkeeping. An expectation that is never met blocks the key forever: the ReplicaSet stops creating and deleting
Pods, silently. ExpectationsTimeout (5 minutes) bounds that: an old record counts as satisfied, the next sync acts
on whatever the cache says and sets new expectations.

The trade-off is the usual one of a safety net: 5 minutes is long enough that a slow watch does not cause double
creates, short enough that a lost event is healed by the controller itself. Section 3 lists the cases;
EXPECTATIONS_TIMEOUT_MS in src/controller/expectations.ts mirrors the timeout, and its unit test moves a fake
clock past it.`,
    keyPoints: [
      {
        point: "the observing event may never arrive",
        terms: ["never", "lost", "missed", "dropped", "relist"],
      },
      { point: "the key would be blocked forever", terms: ["forever", "stuck", "block"] },
      {
        point: "after the timeout the record counts as satisfied",
        terms: ["satisfied", "expire", "timeout"],
      },
      { point: "5 minutes", terms: ["5 min", "five min", "5m", "300"] },
    ],
  },
  {
    id: "16-failed-create",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "The ReplicaSet controller expected 10 creations and 3 of its creates failed. What must it do with its expectations, and why?",
    answer: `Lower them by the creates that failed (and by any it never sent): CreationObserved once for each. A create that
the API server refused produces no Pod, so no watch event will ever lower the count, and the key would wait for
it until the 5-minute timeout. Upstream's manageReplicas does this right after slowStartBatch: "skipped pods"
(the requested count minus the successful creates) are decremented at once, then the error is returned so the
key is retried with backoff.

The same holds for deletes: a delete that fails (other than NotFound) calls DeletionObserved. In section 1,
createPods has the loop after slowStartBatch; the second "try it yourself" removes it.`,
    keyPoints: [
      {
        point: "lower the expectation for each failed create",
        terms: ["lower", "creationobserved", "decrement"],
      },
      { point: "no event will ever come for it", terms: ["never", "no event", "not seen", "no pod"] },
      { point: "otherwise blocked until the timeout", terms: ["timeout", "block", "wait", "5 min"] },
      { point: "return the error: retried with backoff", terms: ["retry", "backoff", "error"] },
    ],
  },
  {
    id: "16-slow-start",
    notebook,
    section: s4,
    topic: "workqueue",
    difficulty: "intermediate",
    question: "What is the ReplicaSet controller's slow start, and what problem does it solve?",
    answer: `The creates of one sync go out in batches of 1, 2, 4, 8... (SlowStartInitialBatchSize is 1, each successful batch
doubles the next), and the first batch with a failure ends the sync. The problem: when creates fail for a reason
that will fail them all (quota exceeded, an admission webhook refusing, a bad template), sending 500 of them per
sync floods the API server and the event stream with identical failures, on every retry.

Section 4 measured it with every Pod create refused for 3 seconds: the controller that sent everything at once sent
20 creates per sync (140 in 7 syncs in one run on embedded), slow start 1 per sync (7). When creates worked again,
one sync made all 20 in batches of 1, 2, 4, 8, 5. The cost is a few round trips of latency on a healthy scale-up.`,
    keyPoints: [
      { point: "batches of 1, 2, 4, doubling", terms: ["1, 2, 4", "double", "batch"] },
      { point: "first failing batch stops the sync", terms: ["stop", "first fail", "failure ends", "skip"] },
      {
        point: "protects the API server from doomed requests",
        terms: ["api server", "flood", "quota", "spam"],
      },
      { point: "costs a few round trips when healthy", terms: ["round trip", "latency", "slower"] },
    ],
  },
  {
    id: "16-burst-replicas",
    notebook,
    section: s4,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "You scale a ReplicaSet from 0 to 2,000. How many Pods does one sync of the ReplicaSet controller create, and how does it get to 2,000?",
    answer: `At most burstReplicas, 500, per sync, in slow-start batches (1, 2, 4, ... 128, then the remaining 245). After those 500
are expected, the sync returns; the Pod add events lower the expectations one by one, and when all 500 are seen the
next sync (woken by those events) counts 500, still wants 1,500, and creates the next 500. Four rounds, each one
waiting for its creates to reach the cache.

The cap bounds how much one key can take of the API server and of a worker at once, and keeps the expectations
record small; slow start bounds the damage when the creates fail (section 4 measured it at 20). Neither changes the
outcome, only its pace: the loop stays level-triggered.`,
    keyPoints: [
      { point: "500 per sync (burstReplicas)", terms: ["500", "burst"] },
      { point: "in slow-start batches", terms: ["batch", "slow start", "doubling"] },
      { point: "next round after the expectations are met", terms: ["expectation", "observed", "next sync"] },
      {
        point: "level-triggered: it keeps going until the count is right",
        terms: ["level", "until", "rounds"],
      },
    ],
  },
  {
    id: "16-deletion-ranking",
    notebook,
    section: s5,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "A ReplicaSet is scaled down from 5 to 3. Which Pods does the controller delete?",
    answer: `The first two in its deletion ranking (ActivePodsWithRanks in pkg/controller/controller_utils.go), which prefers
Pods that cost least to lose: not yet on a node before scheduled; Pending before Unknown before Running; not ready
before ready; lower controller.kubernetes.io/pod-deletion-cost first; Pods on a node with more Pods of the same
ReplicaSet first; ready for less time first; more container restarts first; created more recently first; then by
UID. Times are compared in powers of two, so Pods of about the same age tie.

Section 5 scaled 7 hand-made Pods down one at a time: unassigned, pending, unknown, not-ready, the cheap one, the
one ready for 1 minute; the Pod ready for an hour stayed. It is not "the newest Pod", and not random.`,
    keyPoints: [
      { point: "unscheduled and pending first", terms: ["unassigned", "unscheduled", "pending", "no node"] },
      { point: "not ready before ready", terms: ["not ready", "ready"] },
      { point: "pod-deletion-cost", terms: ["deletion-cost", "deletion cost"] },
      { point: "younger / ready for less time", terms: ["newer", "younger", "less time", "recent"] },
    ],
  },
  {
    id: "16-deletion-cost",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "advanced",
    question: "How can you influence which Pod a ReplicaSet deletes first, and what are the limits?",
    answer: `Set the annotation controller.kubernetes.io/pod-deletion-cost on Pods: an integer, default 0; lower goes first
among Pods that tie on the earlier rules (node assignment, phase, readiness). Section 5's "cheap" Pod (-100) went
before both Pods that were ready and had the default cost.

The limits: it is best effort, compared after scheduling, phase and readiness (an unready Pod still goes first
whatever its cost); it is read at the moment of the scale-down, so someone must keep it current, and writing it
on many Pods often is API traffic of its own; and it only applies to ReplicaSet scale-down (a Deployment rollout
uses it through its ReplicaSets), not to evictions or node drains.`,
    keyPoints: [
      {
        point: "the pod-deletion-cost annotation",
        terms: ["pod-deletion-cost", "deletion cost", "annotation"],
      },
      { point: "lower cost goes first", terms: ["lower"] },
      { point: "after phase and readiness rules", terms: ["after", "readiness", "phase", "ready"] },
      { point: "best effort, keep it current", terms: ["best effort", "current", "update"] },
    ],
  },
  {
    id: "16-adoption",
    notebook,
    section: s5,
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "You create a Pod by hand whose labels match an existing ReplicaSet's selector. What happens to it, and to the ReplicaSet's other Pods?",
    answer: `The ReplicaSet adopts it: the Pod has no controller reference and matches the selector, so the controller's
ControllerRefManager writes an ownerReference with controller: true into it (a patch with the Pod's uid as a
precondition) and counts it. If that makes one Pod too many, the sync deletes one by the deletion ranking, which
may be your Pod or another. In section 5 the ReplicaSet of 7 adopted 7 hand-made Pods and created none.

The reverse is release: change a controlled Pod's labels so they no longer match and the controller removes its
reference (orphans it) and creates a replacement. Adoption only takes orphans: a Pod already controlled by
something else is left alone, which is why two ReplicaSets with overlapping selectors do not steal Pods.`,
    keyPoints: [
      { point: "orphans matching the selector are adopted", terms: ["adopt", "orphan"] },
      {
        point: "a controller ownerReference is written",
        terms: ["ownerreference", "owner reference", "controller ref"],
      },
      { point: "the count may now be too high: one is deleted", terms: ["delete", "too many", "surplus"] },
      { point: "labels no longer matching: released", terms: ["release", "label"] },
    ],
  },
  {
    id: "16-deployment-chain",
    notebook,
    section: s6,
    topic: "operators",
    difficulty: "basic",
    question:
      "Walk through what happens between `kubectl apply` of a changed Deployment and new Pods running.",
    answer: `The API server stores the Deployment and bumps its generation. The Deployment controller's informer sees it; the
sync hashes the new Pod template, creates a new ReplicaSet for it (owned by the Deployment, next revision number),
and moves replicas: scales the new ReplicaSet up and the old one down, within maxSurge and maxUnavailable. The
ReplicaSet controller sees each new spec.replicas and creates or deletes Pods (owned by their ReplicaSet), with
expectations and slow start. The scheduler binds each Pod to a node; the kubelet runs it and reports Ready. The
ReplicaSet controller counts ready Pods into its status; the Deployment controller reads that status and takes the
next step, until the old ReplicaSet is at 0.

No controller calls another: each one writes objects the next one watches. Section 6 shows the chain on envtest
(with a stand-in for the kubelet) or kind.`,
    keyPoints: [
      {
        point: "the Deployment controller creates a new ReplicaSet",
        terms: ["new replicaset", "replicaset"],
      },
      {
        point: "scales new up, old down within surge/unavailable",
        terms: ["maxsurge", "maxunavailable", "scale"],
      },
      { point: "the ReplicaSet controller creates the Pods", terms: ["pods", "replicaset controller"] },
      {
        point: "scheduler and kubelet; readiness feeds back",
        terms: ["scheduler", "kubelet", "ready", "available"],
      },
      { point: "no direct calls: objects and watches", terms: ["no call", "watch", "objects", "owner"] },
    ],
  },
  {
    id: "16-max-surge",
    notebook,
    section: s6,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "A Deployment of 3 replicas with the default strategy rolls out a new template. How many Pods may exist at once, and what makes the rollout wait?",
    answer: `maxSurge and maxUnavailable default to 25%: surge rounds up (1 of 3), unavailable rounds down (0 of 3). So the
ReplicaSets may have 4 replicas between them, and the number of available Pods may not drop below 3: the
controller creates one new Pod, waits until it is available (ready for minReadySeconds), then scales the old
ReplicaSet down by one, and repeats. Section 6 checked that the sum of spec.replicas never went above 4.

What makes it wait is availability, reported by the kubelet through the Pod's Ready condition and counted by the
ReplicaSet controller. Without a kubelet (envtest with the stand-in turned off) the rollout stops after the first
new Pod; with a readiness probe that never passes it stops the same way, and progressDeadlineSeconds (600 s) marks
it failed with a condition, without rolling back.`,
    keyPoints: [
      {
        point: "25% defaults: surge 1 (rounded up), unavailable 0 (rounded down)",
        terms: ["25%", "round", "surge"],
      },
      { point: "at most 4 at once", terms: ["4", "four"] },
      { point: "waits for new Pods to become available", terms: ["available", "ready", "wait"] },
      { point: "progress deadline", terms: ["progressdeadline", "deadline", "stuck"] },
    ],
  },
  {
    id: "16-operator-expectations",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "advanced",
    question:
      "Your controller-runtime operator creates child objects with generateName and sometimes creates too many. How do you fix it?",
    answer: `The cause is section 2's: the reconcile counts children in the manager's cache, which has not yet seen the
children the previous reconcile created. controller-runtime has no expectations helper, so two fixes:

1. Deterministic names (set-0, set-1, as 05's ConfigSet and a StatefulSet do): a duplicate create fails with
   AlreadyExists, which the reconcile ignores. The lagging cache then costs a refused request, never a duplicate.
   This is the usual answer.
2. Track expectations yourself, as the Go section does: a map per owner key of creates not yet seen, set before
   creating, lowered in a Create handler on the child informer (Watches with handler.Funcs), with a timeout;
   and lowered by hand for creates that failed.

A read from the API server instead of the cache (the APIReader) also works, at the cost of a LIST per reconcile.`,
    keyPoints: [
      { point: "the cache has not seen the previous creates", terms: ["cache", "lag", "not seen", "stale"] },
      {
        point: "deterministic names + AlreadyExists",
        terms: ["deterministic", "alreadyexists", "fixed name"],
      },
      { point: "or track expectations yourself in a handler", terms: ["expectation", "handler", "track"] },
      { point: "or an uncached read, at a cost", terms: ["apireader", "uncached", "api server", "list"] },
    ],
  },
]);
