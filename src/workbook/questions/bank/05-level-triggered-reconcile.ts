import { defineQuestions } from "../question.js";

const notebook = "05-level-triggered-reconcile";
const s1 = "1. A kind with a replica count";
const s2 = "2. The problem first: an edge-triggered controller";
const s3 = "3. The level-triggered one";
const s4 = "4. Side by side: drop events, restart, drift";
const s5 = "5. The live pipeline";
const s6 = "6. Idempotency: run it twice";
const s7 = "7. Declarative vs imperative: after a failure, after drift, over a life";
const s8 = "8. The cron analogy: overdue survives a missed run";
const s9 = "9. The controllers you already run";

/** Questions for `notebooks/05-level-triggered-reconcile.ipynb`: what a worker does with a key. */
export const reconcile05 = defineQuestions([
  {
    id: "05-level-vs-edge",
    notebook,
    section: s4,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "What is the difference between an edge-triggered and a level-triggered controller, and which one does Kubernetes use?",
    answer: `An **edge-triggered** controller acts on the change an event describes ("replicas went from 5 to 2: delete 3").
A **level-triggered** controller treats the event only as a hint that *something* about a key changed, then reads
the whole desired state and the whole actual state and acts on the difference ("the spec wants 2, I see 7: delete
5").

Kubernetes controllers are level-triggered, with a periodic resync as a backstop. The edge version has to see
every event exactly once and remember what it did; one lost event, a restart or a change it did not make, and its
memory no longer matches the world, for good. In section 4 the edge controller drifts after the dropped watch and
never comes back, while the level one matches the desired count after every step. The price of level triggering is
a full read of the current state on every reconcile, which the informer's cache makes cheap.`,
    keyPoints: [
      {
        point: "edge acts on the change in the event",
        terms: ["change", "delta", "event says", "transition"],
      },
      {
        point: "level compares desired with actual state",
        terms: ["desired", "actual", "current state", "whole state", "observed"],
      },
      { point: "Kubernetes is level-triggered, with resync", terms: ["level", "resync"] },
      { point: "missed events heal", terms: ["missed", "lost", "drop", "heal", "self-heal"] },
    ],
  },
  {
    id: "05-dont-branch-on-event",
    notebook,
    section: s2,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "Why should a reconcile function not branch on whether the triggering event was a create, an update or a delete?",
    answer: `Because by the time the reconcile runs, the event type no longer describes the world. Keys are deduplicated in the
queue, so five updates (or a create followed by a delete) arrive as one key; events can be missed across a dropped
watch or a restart; and after a restart every object shows up as "added" again. Code that does "on create: make
N children", like the edge controller of section 2, then does it twice (section 4: its replayed ADDED events create
a second batch).

The reconcile in section 3 takes only a key. It reads the object from the cache: absent means deleted, present
means make reality match its spec. That single path handles creation, updates, deletion, restarts and drift. The
trade-off: you lose the "old" value, so anything you need from the past must be recorded in the object (status,
annotations) or derivable from what exists.`,
    keyPoints: [
      { point: "keys are deduplicated, events coalesce", terms: ["dedup", "coalesc", "collapse", "one key"] },
      { point: "events can be missed or replayed", terms: ["missed", "replay", "restart", "lost"] },
      { point: "read the current state for the key", terms: ["current state", "cache", "read", "key"] },
      { point: "one code path for all cases", terms: ["one path", "same code", "single", "all cases"] },
    ],
  },
  {
    id: "05-why-idempotent",
    notebook,
    section: s6,
    topic: "reconcile",
    difficulty: "basic",
    question: "Why must a reconcile be idempotent, and how do you make creating children idempotent?",
    answer: `A reconcile runs again and again for the same state: after every resync, after a restart, after a retry, and when
a second event for the key arrives. If a run on an already-converged world changed something, every resync would
create churn (and a loop of events waking the controller again). Section 6 runs the reconcile twice in a row: the
first run writes 2 creates, the second writes nothing.

Creating children is where idempotency usually breaks, because the cache may not show your own creates yet. Two
fixes: **deterministic names** (\`b-0\`..\`b-6\`), so a repeated create answers 409 \`AlreadyExists\`, which means
"already done"; or **expectations** (ReplicaSet's controller records how many creates it is waiting to see and
skips work until the cache catches up). With \`generateName\` and no expectations, the second run creates
duplicates.`,
    keyPoints: [
      {
        point: "reconcile runs many times for the same state",
        terms: ["many times", "again", "resync", "retry", "restart"],
      },
      { point: "second run changes nothing", terms: ["nothing", "no change", "no write", "same result"] },
      {
        point: "deterministic names make create idempotent",
        terms: ["deterministic", "fixed name", "409", "alreadyexists"],
      },
      { point: "or expectations while the cache lags", terms: ["expectation", "cache", "stale", "lag"] },
    ],
  },
  {
    id: "05-reconcile-error",
    notebook,
    section: s5,
    topic: "workqueue",
    difficulty: "intermediate",
    question: "What happens when a reconcile returns an error?",
    answer: `The key goes back into the workqueue **rate-limited**: \`AddRateLimited\`, without \`Forget\`, so each further
failure waits longer (controller-runtime's default: per-item exponential backoff from 5 ms up to 1000 s, combined
with an overall token bucket). The worker calls \`Done\` either way, so the key is free to be processed again. A
success calls \`Forget\`, which resets the backoff (section 5's \`workerStep\` does \`forget\` + \`done\`).

Nothing else remembers the error: the next run is a fresh level-triggered reconcile of whatever is true then. Two
refinements: an error that retrying cannot fix (a bad spec) should be a terminal error that is not requeued (and is
reported in status), and "not done yet, check again later" is better expressed as \`requeueAfter\` than as an error,
so it does not inflate error metrics. Returning an error for "not found" is a bug: it retries forever.`,
    keyPoints: [
      {
        point: "requeued with rate limiting / backoff",
        terms: ["rate", "backoff", "addratelimited", "requeue"],
      },
      { point: "Done always, Forget on success", terms: ["done", "forget"] },
      { point: "terminal errors are not retried", terms: ["terminal", "not retr", "permanent"] },
      { point: "requeueAfter for waiting, not errors", terms: ["requeueafter", "requeue after", "later"] },
    ],
  },
  {
    id: "05-sequential",
    notebook,
    section: s5,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "Are reconciles of one object sequential? What if an event arrives while it is being reconciled?",
    answer: `Yes. The workqueue never hands the same key to two workers at once, even with many workers: a key being
processed sits in the \`processing\` set, and an \`add\` of it meanwhile only marks it \`dirty\`. When the worker
calls \`Done\`, the key goes back into the queue and is reconciled once more, reading the newer state. Different
keys run in parallel (\`MaxConcurrentReconciles\`).

So a reconcile never races with itself for one object, but it does race with everyone else who writes that object
or its children (users, other controllers): that is what optimistic concurrency (resourceVersion, 409) is for. And
several events during one reconcile collapse into one follow-up run, as the five-update burst in section 5
collapsed into one queued key and one reconcile.`,
    keyPoints: [
      {
        point: "one key is never processed by two workers at once",
        terms: ["never", "one worker", "sequential", "not concurrent"],
      },
      {
        point: "re-adds while processing are parked (dirty) and run after Done",
        terms: ["dirty", "parked", "after done", "again"],
      },
      {
        point: "different keys run in parallel",
        terms: ["different keys", "parallel", "concurrent reconciles", "workers"],
      },
      {
        point: "other writers still race: optimistic concurrency",
        terms: ["409", "conflict", "resourceversion", "optimistic"],
      },
    ],
  },
  {
    id: "05-operator",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "basic",
    question: "How does an operator relate to the controller pattern in this notebook?",
    answer: `An operator **is** a controller, usually for a custom resource (here the ConfigSet CRD from section 1), that
encodes operational knowledge of one application: the spec says what the user wants, the reconcile loop makes the
cluster (and maybe things outside it) match, and status reports what it saw. Everything in this notebook applies
unchanged: informers and listers for the kinds it reads, a workqueue of keys, a level-triggered idempotent
reconcile, ownerReferences on what it creates, a watch on owned kinds (\`Owns\`).

What an operator adds is domain logic (upgrades, backups, failover) and the API design of its CRD. Frameworks such
as controller-runtime/kubebuilder generate the wiring so the author writes mostly the reconcile function, which is
why the reconcile's properties (level-triggered, idempotent, tolerant of a stale cache) matter most.`,
    keyPoints: [
      {
        point: "an operator is a controller for a custom resource",
        terms: ["custom resource", "crd", "is a controller"],
      },
      {
        point: "encodes domain/operational knowledge",
        terms: ["domain", "operational", "application", "knowledge"],
      },
      { point: "same machinery: informer, queue, reconcile", terms: ["informer", "queue", "reconcile"] },
      {
        point: "frameworks generate the wiring",
        terms: ["controller-runtime", "kubebuilder", "operator sdk", "framework"],
      },
    ],
  },
  {
    id: "05-resync",
    notebook,
    section: s5,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "What does an informer resync do, and when does it heal something that events would not?",
    answer: `Every resync period the informer hands every object **in its cache** to the handlers again, as an update with
the same object; the handler enqueues each key and the controller reconciles everything once more. It does not
contact the API server: it replays the cache.

It heals drift that no watched event announces: a child changed in a kind the controller does not watch, an
external resource changed behind its back, or a bug that dropped a key. Section 5 deletes a child that the pipeline
does not watch: the queue stays empty and the object stays orange until the hand-triggered resync queues its key.
The trade-off is load: every period reconciles every object, so periods are long (controller-runtime defaults to
about 10 hours) and watching owned objects is the primary mechanism; resync is the backstop.`,
    keyPoints: [
      {
        point: "replays every cached object to the handlers",
        terms: ["every object", "all objects", "replay", "cache"],
      },
      { point: "no API request; from the cache", terms: ["cache", "no request", "not relist", "local"] },
      {
        point: "heals drift no event announced",
        terms: ["drift", "unwatched", "not watch", "external", "missed"],
      },
      {
        point: "costly, so long periods; watches first",
        terms: ["cost", "load", "long", "10 hours", "hours"],
      },
    ],
  },
  {
    id: "05-watch-owned",
    notebook,
    section: s3,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Someone deletes a child ConfigMap by hand. How does the parent's controller find out, and what does it do?",
    answer: `It watches the child kind too, and its handler maps each child event to the **owner's** key through the child's
controller ownerReference: in section 3 \`enqueueRequestForOwner\` (client-go's \`GetControllerOf\` plus the queue;
controller-runtime's \`Owns(&ConfigMap{})\`, which is \`handler.EnqueueRequestForOwner\` with \`OnlyControllerOwner\`).
The DELETED event of the child (the last state it had, ownerReference included) enqueues the
ConfigSet's key; the reconcile finds one child short and creates it again. In section 4 that is the row
"2 deleted by hand": the level controller is back at the desired count right away.

Without the child watch, the controller would find out only at the next resync or the next change of the parent
(section 5 shows that case). Mapping to the owner keeps one reconcile per parent: the reconcile is about the
ConfigSet, never about an individual ConfigMap.`,
    keyPoints: [
      { point: "watch the owned kind", terms: ["watch", "owns", "informer", "child"] },
      {
        point: "map the child event to the owner's key",
        terms: ["owner", "ownerreference", "label", "parent's key"],
      },
      { point: "reconcile recreates the missing child", terms: ["recreate", "create", "missing"] },
      { point: "otherwise only resync heals it", terms: ["resync", "only later"] },
    ],
  },
  {
    id: "05-dropped-watch",
    notebook,
    section: s4,
    topic: "watch",
    difficulty: "advanced",
    question:
      "A watch connection breaks and events happen before it is re-established. What does an informer do, and why did the naive controller in the notebook get it wrong?",
    answer: `The informer's reflector re-watches **from the last resourceVersion it saw**, so the server replays exactly the
events it missed. If that history is gone (compacted: 410 Expired), it lists again and replaces its cache; the
informer computes the differences and notifies updates and deletions, so handlers still see every object whose
state changed. A level-triggered controller then reconciles those keys and converges (section 4, the step
"watch dropped, scale to 2", where the notebook also compacts the history).

The edge controller watched again without a resourceVersion. The server answered with the current state as
synthetic ADDED events: it never saw the MODIFIED "5 to 2", and its ADDED handler created 2 more children. The
lessons: resume watches from a resourceVersion and relist on 410, and make the reconcile independent of which
events arrived.`,
    keyPoints: [
      { point: "resume from the last resourceVersion", terms: ["resourceversion", "resume", "last seen"] },
      { point: "410 Expired leads to relist", terms: ["410", "expired", "relist", "list again"] },
      {
        point: "watch without resourceVersion replays current state as ADDED",
        terms: ["added", "synthetic", "replay", "current state"],
      },
      { point: "level-triggered reconcile converges anyway", terms: ["level", "converge", "reconcile"] },
    ],
  },
  {
    id: "05-not-found",
    notebook,
    section: s5,
    topic: "reconcile",
    difficulty: "basic",
    question: "The reconcile reads its object from the cache and it is not there. What should it do?",
    answer: `Treat it as a normal outcome: the object was deleted, so there is nothing to converge. Return success, so the key
is forgotten and not retried. Children with a controller ownerReference are deleted by the garbage collector
(notebook 08); anything outside the cluster needs a finalizer, because after deletion the object, and with it the
information of what to clean up, is gone (notebook 07).

Returning an error instead would retry the key forever with growing backoff. Section 5's "delete one" cell shows
the reconcile log line \`gone, nothing to do\` for key \`a\`. A subtle case: the cache may lag, so "not found" can
also mean "created but not seen yet"; a later event for the key reconciles it then.`,
    keyPoints: [
      {
        point: "not found means deleted: success, nothing to do",
        terms: ["deleted", "nothing to do", "success", "return"],
      },
      {
        point: "do not retry / not an error",
        terms: ["not an error", "don't retry", "forever", "not retry"],
      },
      { point: "children go via owner references and GC", terms: ["garbage", "ownerreference", "gc"] },
      { point: "external cleanup needs a finalizer", terms: ["finalizer"] },
    ],
  },
  {
    id: "05-burst",
    notebook,
    section: s5,
    topic: "workqueue",
    difficulty: "basic",
    question:
      "An object is updated five times within a millisecond. How many reconciles does that cause, and why is that correct?",
    answer: `Usually one. The informer delivers five notifications, each handler call adds the same key, and the workqueue
keeps a key at most once while it waits (the \`dirty\` set). One worker then gets the key and reconciles the
**latest** state from the cache, which includes all five updates. Section 5 measured it: five MODIFIED
notifications, queue \`[b]\`, one reconcile.

It is correct because the reconcile is level-triggered: the intermediate states do not matter, only the latest
desired state does. If an update lands while the key is being processed, the key is reconciled once more after
\`Done\`, so nothing is lost. This is why keys, not events, go into the queue.`,
    keyPoints: [
      { point: "one reconcile (or two if during processing)", terms: ["one", "once", "single"] },
      { point: "the queue deduplicates the key", terms: ["dedup", "once in the queue", "dirty", "collapse"] },
      { point: "reconcile reads the latest state", terms: ["latest", "current", "newest"] },
      {
        point: "intermediate states do not matter (level)",
        terms: ["intermediate", "level", "don't matter"],
      },
    ],
  },
  {
    id: "05-several-reconciles",
    notebook,
    section: s6,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "You create one custom resource and your Reconcile runs three times. Is something wrong? Where do the extra calls come from?",
    answer: `Nothing is wrong. Reconcile is called for a key each time an event enqueues it, not once per create. The
create enqueues the key; the first reconcile creates the children, and each child's ADDED event enqueues the
owner again (\`Owns()\`, or \`enqueueRequestForOwner\` here). Events that arrive while the key is being processed
mark it dirty, so it runs once more after \`Done\`; events that arrive while it waits fold into one. A status
write of your own, a resync and a retry after an error add more. Section 6 records one create on a timeline: four
events enqueue the key, two to four reconciles run, and only the first writes.

So never count on the number: make the reconcile idempotent (a later run sees the work done and writes nothing;
a create of a child its cache does not show yet answers AlreadyExists, which deterministic names make harmless),
and cut needless wake-ups where they cost (a predicate on status-only updates), not by guessing which call is the
"real" one.`,
    keyPoints: [
      { point: "called per enqueued key, not per create", terms: ["key", "event", "enqueue"] },
      {
        point: "the children's events enqueue the owner",
        terms: ["child", "children", "owns", "owner"],
      },
      {
        point: "events during a reconcile cause one more run",
        terms: ["dirty", "processing", "again", "once more"],
      },
      {
        point: "the reconcile must be idempotent",
        terms: ["idempotent", "nothing to do", "no-op", "writes nothing"],
      },
    ],
  },
  {
    id: "05-schema-validation",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "basic",
    question:
      "Where should a rule like 'replicas is between 0 and 50' be enforced: in the controller or in the API?",
    answer: `In the API, as the CRD's OpenAPI schema (\`minimum: 0\`, \`maximum: 50\`), possibly plus CEL rules or a webhook for
rules across fields. The API server then refuses a bad object with 422 Invalid **at write time**, so the user sees
the error from \`kubectl apply\`, and no invalid spec is ever stored (section 1: \`replicas: -1\` is refused).

A controller that validates can only report a problem after the fact (status condition, Event) while the bad
object stays stored; and every controller reading the kind would have to repeat the check. The controller should
still be defensive about what the schema cannot express, and report such specs as a terminal error in status.`,
    keyPoints: [
      { point: "in the CRD schema", terms: ["schema", "openapi", "crd", "minimum", "cel", "webhook"] },
      {
        point: "rejected at write time with 422",
        terms: ["422", "invalid", "write time", "refused", "rejected"],
      },
      {
        point: "controllers can only report after the fact",
        terms: ["after the fact", "status", "condition", "event"],
      },
    ],
  },
  {
    id: "05-restart",
    notebook,
    section: s4,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "Your controller restarts. What does it do on startup, and what must it not assume?",
    answer: `It starts its informers, waits until their caches have synced (one LIST each), and only then starts workers. Every
object in the initial list is delivered as an add, so every key is reconciled once. A level-triggered, idempotent
reconcile finds most objects already converged and writes nothing: in section 4 the restarted level controller
reconciled and made 0 writes.

It must not assume anything kept in memory survived (the edge controller's map of "children I created" was empty
after its restart, and its replayed ADDED events created a second batch), nor that it saw the events that happened
while it was down. All state it needs must be in the cluster: spec, status, labels, ownerReferences. Starting
workers before the caches sync would make the reconcile see "no children" and create duplicates.`,
    keyPoints: [
      {
        point: "list, sync caches, then reconcile every key",
        terms: ["sync", "list", "every key", "all objects"],
      },
      { point: "in-memory state is lost", terms: ["memory", "lost", "forget", "empty"] },
      { point: "state lives in the cluster", terms: ["cluster", "status", "labels", "ownerreference"] },
      { point: "idempotent: no writes when converged", terms: ["idempotent", "no write", "nothing"] },
    ],
  },
  {
    id: "05-go-result-vs-error",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "In controller-runtime, Reconcile returns (ctrl.Result, error). When do you return an error, when ctrl.Result{RequeueAfter: d}, and when an empty Result?",
    answer: `All three put the key back on the controller's rate-limited workqueue (notebook 04), or not, in different ways.

- **An error** means "this attempt failed": the key is re-added with the per-key exponential backoff
  (\`AddRateLimited\`), the error is logged, and \`controller_runtime_reconcile_errors_total\` counts it. Use it for
  failures that a retry may fix: a 409, a timeout, a cloud API that is down. An error wrapped in
  \`reconcile.TerminalError\` is counted but not retried: input that no retry can fix.
- **\`ctrl.Result{RequeueAfter: d}\`** with a nil error means "nothing failed, but look again in d": the key is
  re-added after d (\`AddAfter\`) and its backoff is reset (\`Forget\`). Use it to poll something outside the cluster
  that sends no events, or for a deadline (a certificate to renew).
- **An empty Result and nil** means done: \`Forget\` and \`Done\`. The next change, or the resync, brings the key back.

Returning both (a Result with RequeueAfter and an error) is a mistake: controller-runtime uses the error and
ignores the Result. The reconcile of section 3 has the same shape in TypeScript: a thrown error goes back through
the rate limiter, success forgets the key. The Go version is the "The same in Go" section of this notebook
(test/go-snippets/internal/controllers/configset.go), and the glossary's \`ctrl.Result\` row.`,
    keyPoints: [
      {
        point: "an error requeues with per-key exponential backoff",
        terms: ["backoff", "rate limit", "exponential"],
      },
      {
        point: "RequeueAfter requeues after a fixed delay, no error",
        terms: ["requeueafter", "requeue after", "after"],
      },
      {
        point: "success forgets the key; events or resync bring it back",
        terms: ["forget", "done", "resync"],
      },
      { point: "error wins over Result when both are returned", terms: ["ignored", "both", "error wins"] },
    ],
  },
  {
    id: "05-go-owns-vs-watches",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "In the controller-runtime builder, what is the difference between Owns(&corev1.ConfigMap{}) and Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(fn))? When do you need the second?",
    answer: `Both watch ConfigMaps through the manager's shared informer and turn a ConfigMap event into the key of some other
object to reconcile; they differ in how they find that key.

- **\`Owns\`** follows the ConfigMap's *controller* ownerReference: an event on a ConfigMap controlled by a ConfigSet
  enqueues that ConfigSet's key, and a ConfigMap with no such owner is ignored. It needs
  \`SetControllerReference\` on every child (notebook 08) and works only within one namespace, since an owner
  must be in the child's namespace (or cluster-scoped).
- **\`Watches\` with \`EnqueueRequestsFromMapFunc\`** calls your function with the object and enqueues whatever keys it
  returns. Use it when the relation is not ownership: a label or a field naming the parent, a Secret that many
  objects reference (map through a field index), a cluster-scoped object that affects many namespaced ones.

Section 3 does the first by hand: the ConfigSet informer's handler enqueues the set's own key (\`For\`), and the
ConfigMap handler is \`enqueueRequestForOwner\`, which follows the controller ownerReference as \`Owns\` does (the
children's \`workbook.dev/configset\` label only selects what the informer and the lister see). The Go reconciler
of this notebook's "The same in Go" section uses \`Owns\` because its children carry a controller reference
(test/go-snippets/internal/controllers/configset.go).`,
    keyPoints: [
      {
        point: "Owns maps a child to its controller owner via ownerReferences",
        terms: ["ownerreference", "owner", "controller reference"],
      },
      { point: "a map function returns arbitrary keys", terms: ["map", "function", "any key", "arbitrary"] },
      {
        point: "use Watches when the relation is not ownership",
        terms: ["label", "reference", "index", "not owned", "cross-namespace"],
      },
    ],
  },
  {
    id: "05-declarative-vs-imperative",
    notebook,
    section: s7,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "A teammate automates a setup with a script that runs `kubectl create` three times. Why does Kubernetes ask you to declare an object and let a controller act instead?",
    answer: `The script is **imperative**: it says what to do, once. The object is **declarative**: it says what should be true,
and a controller keeps it true for the object's whole life. The difference shows up exactly where a demo does not look:

- **after a failure**: a refused create stops the script (as \`set -e\` does) and a human must rerun it; the
  controller's reconcile returns the error, the key is requeued with backoff (notebook 04), and the next pass creates
  what is missing;
- **after drift**: when someone deletes a child, the rerun script hits 409 AlreadyExists on a child that is still
  there and stops, because "create 3" is not idempotent; the controller compares desired with actual and creates
  the one that is missing;
- **at the end of the life**: deleting the ConfigSet removes its children through their ownerReferences (the garbage
  collector, notebook 08); the script's children belong to nobody and stay.

Section 7 runs both through these four steps and counts the children at the API server after each: the script's
count is off after the failure (on embedded, where the cell can inject one), the drift and the delete; the
controller's never is (once it has converged; without
a garbage collector, as on envtest, the last row is not judged). The cost of the declarative side is a controller
that must run all the time, and a reconcile written to be rerun.`,
    keyPoints: [
      {
        point: "imperative says what to do once; declarative says what should be true",
        terms: ["imperative", "declarative", "what should be", "desired state"],
      },
      {
        point: "a failure is retried by the controller, not by a human",
        terms: ["retry", "requeue", "backoff", "rerun"],
      },
      {
        point: "create is not idempotent: a rerun after drift fails with AlreadyExists",
        terms: ["idempotent", "alreadyexists", "409", "already exists"],
      },
      {
        point: "owned children are removed with the object; a script's are not",
        terms: ["owner", "garbage", "cleanup", "left behind", "nobody"],
      },
    ],
  },
  {
    id: "05-cron-overdue",
    notebook,
    section: s8,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      'A scheduler must start a job every 10 minutes and is down for two minutes at minute 30. Compare deciding with "is it exactly my minute?" and with "is anything overdue?". What does the CronJob controller do?',
    answer: `"Is it exactly my minute?" (\`minute % 10 === 0\`) is **edge-triggered**: it is true only at the instant of the
change, so the run due at minute 30 is lost for good when the scheduler does not wake up at minute 30. "Is anything
overdue?" is **level-triggered**: it compares the latest due time at or before now with the last one it ran, so at
minute 32 it sees that 30 is due and not done and runs it, late but once. Section 8 simulates the hour: the level
rule runs all six due times in order (one of them late), the edge rule never runs the one at minute 30.

The level rule needs one piece of memory, the last due time it ran, and it must live where a restarted scheduler
finds it. The CronJob controller keeps it in the object, \`status.lastScheduleTime\`: on each sync it computes the
most recent schedule time missed since then and starts a Job for it, unless that time is further in the past than
\`startingDeadlineSeconds\` allows. This is the same shape as every reconcile: compare the desired state with what is
recorded, act on the difference, and keep the record in the cluster rather than in the process.`,
    keyPoints: [
      {
        point: "the exact-minute rule is edge-triggered and loses a missed run",
        terms: ["edge", "exact", "lost", "never runs", "missed"],
      },
      {
        point: "the overdue rule compares due time with the last run and runs late",
        terms: ["overdue", "level", "late", "last run"],
      },
      {
        point: "the last run is recorded in the object (status.lastScheduleTime)",
        terms: ["lastscheduletime", "status", "recorded"],
      },
      { point: "startingDeadlineSeconds bounds how late", terms: ["startingdeadlineseconds", "deadline"] },
    ],
  },
  {
    id: "05-built-in-controllers",
    notebook,
    section: s9,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "You apply a Deployment. Which controllers act before Pods run, how do they find each other's objects, and in which process do they live?",
    answer: `Three controllers of **kube-controller-manager** and the scheduler, chained only through objects at the API server:

1. the **deployment controller** watches Deployments, ReplicaSets and Pods and creates a ReplicaSet for the
   Deployment's pod template (owned by the Deployment through a controller ownerReference); a rollout scales the new
   ReplicaSet up and the old one down;
2. the **replicaset controller** watches ReplicaSets and Pods and creates Pods with \`generateName\` and a controller
   ownerReference until the count matches \`spec.replicas\`;
3. the **scheduler** (a separate process) binds each Pod to a Node, and the kubelet of that Node starts it.

None of them calls another: each reconciles its own kind, and an object written by one is an event for the next.
kube-controller-manager runs its controllers (about 45 registered, \`--controllers\` selects them) in one process on
one shared informer factory (notebook 03), and only while it holds the Lease
\`kube-system/kube-controller-manager\` (notebook 09). The ConfigSet of this notebook is a replicaset controller in
miniature: children from a count, a controller ownerReference on each, level-triggered. Section 9 tables the
controllers met every day and checks on a real cluster that the built-in garbage collector removed the children of
the ConfigSets deleted earlier.`,
    keyPoints: [
      {
        point: "deployment controller creates ReplicaSets, replicaset controller creates Pods",
        terms: ["replicaset", "deployment controller", "creates pods"],
      },
      {
        point: "they communicate only through objects and watches",
        terms: ["through the api", "watch", "events", "objects", "never calls"],
      },
      {
        point: "one kube-controller-manager process, shared informers, leader election",
        terms: ["kube-controller-manager", "shared informer", "lease", "leader"],
      },
      { point: "the scheduler and kubelet finish the job", terms: ["scheduler", "kubelet", "node"] },
    ],
  },
]);
