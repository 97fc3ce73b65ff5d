import { defineQuestions } from "../question.js";

const notebook = "12-interview-preparation";
const section = "5. Classic questions across the path";

/**
 * Questions for `notebooks/12-interview-preparation.ipynb`: the interview classics that cut across the whole
 * learning path (end-to-end walk-throughs, design and scaling, testing strategy). Each answer names the notebooks
 * that demonstrate its parts; the notebook shows them in its section 5.
 */
export const interview12 = defineQuestions([
  {
    id: "12-apply-to-reconcile",
    notebook,
    section,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Walk me through everything that happens between `kubectl apply` of a custom resource and your reconcile function running.",
    answer: `kubectl sends the object to the API server, which authenticates, authorises, runs admission (defaulting,
validation), stores it and gives it a new resourceVersion. Every watcher of that resource gets an ADDED or MODIFIED
event on its open watch (notebook 01). In the controller, the reflector receives the event (it listed once, then
watches from the list's resourceVersion), puts a delta in the DeltaFIFO, and the informer pops it into the indexer,
the local cache (notebook 02), then calls every registered handler (notebook 03). The handler computes the
\`namespace/name\` key and adds it to the rate-limited workqueue, which deduplicates it (notebook 04). A worker takes
the key, and the reconcile reads the current object from the cache, not from the event, compares desired with actual
and writes (notebook 05).

Section 5 collects this walk-through; being able to draw the data path from memory is most of the answer.`,
    keyPoints: [
      {
        point: "the API server stores it and the watch delivers an event",
        terms: ["watch", "event", "added", "modified"],
      },
      {
        point: "reflector, DeltaFIFO and the indexer cache",
        terms: ["reflector", "deltafifo", "indexer", "cache"],
      },
      { point: "handlers enqueue a namespace/name key", terms: ["key", "namespace/name", "handler"] },
      { point: "a worker reconciles from the cache", terms: ["worker", "reconcile", "reads"] },
    ],
  },
  {
    id: "12-controller-vs-operator",
    notebook,
    section,
    topic: "operators",
    difficulty: "basic",
    question: "What is the difference between a controller and an operator?",
    answer: `A controller is any control loop that watches objects and moves the world toward the state they declare:
the Deployment controller, the garbage collector, the namespace controller. An operator is a controller (usually
several) plus a custom resource that captures one application's operational knowledge: how to install, scale,
back up, upgrade or fail over, say, a database, encoded as reconcile logic over its own API.

So every operator is built from controllers, and the machinery is the same (informers, queue, reconcile,
finalizers, leader election); what an operator adds is a domain API and the human knowledge behind it. The capstone
(notebook 10) is a small operator for the workbook's StaticSite (a bucket in a fake cloud plus ConfigMaps); section 5 lists this question with the others that
span the path.`,
    keyPoints: [
      {
        point: "a controller is a control loop toward declared state",
        terms: ["control loop", "desired", "declared"],
      },
      { point: "an operator adds a custom resource / domain API", terms: ["custom resource", "crd", "api"] },
      {
        point: "and encodes operational knowledge of an application",
        terms: ["knowledge", "application", "domain"],
      },
    ],
  },
  {
    id: "12-controller-restart",
    notebook,
    section,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "Your controller crashes and restarts. What state does it lose, and why is that fine for a well-written controller?",
    answer: `It loses everything in memory: the cache, the queue with its pending keys and backoff counters, any
in-flight reconcile, and any note it kept of what it saw before. That is fine because a level-triggered controller
keeps no state that matters outside the cluster: on start the informer LISTs everything, every object arrives as an
add, every key is enqueued, and each reconcile recomputes what to do from the current state (notebook 05).

What it must get right: reconciles are idempotent (a half-done reconcile is simply done again), external resources
are found again by deterministic names or IDs recorded in status, and deletions in flight are protected by
finalizers (notebook 07) so they cannot be missed while the controller is down. Section 5 collects this question.`,
    keyPoints: [
      { point: "memory only: cache, queue, in-flight work", terms: ["cache", "queue", "memory"] },
      {
        point: "on restart it relists and re-enqueues everything",
        terms: ["relist", "list", "every object", "re-enqueue"],
      },
      { point: "level-triggered, idempotent reconcile", terms: ["level", "idempotent"] },
      { point: "finalizers protect deletions while it is down", terms: ["finalizer"] },
    ],
  },
  {
    id: "12-scale-controller",
    notebook,
    section,
    topic: "operators",
    difficulty: "advanced",
    question:
      "Your controller has to handle 100,000 objects. How do you make it scale, and what limits you first?",
    answer: `First memory and the initial LIST: the informer caches every object, so strip what you do not need with a
transform (managed fields, big annotations), watch only what you need (label or field selectors, metadata-only
informers for objects you only reference), and use one shared informer per resource in the process (notebook 03).

Then throughput: more workers (the queue still never runs one key twice at once, notebook 04), no API reads in the
reconcile (read the cache), no writes that change nothing (notebook 11), and client rate limits set for the load.
Beyond one process, only one replica acts under leader election (notebook 09), so scaling out means sharding: split
objects across controller instances by a label or hash, each with its own selector and lease. Section 5 collects
this question.`,
    keyPoints: [
      {
        point: "cache memory: transforms, selectors, metadata-only",
        terms: ["memory", "transform", "selector", "metadata"],
      },
      { point: "more workers, safe per key", terms: ["workers", "concurren"] },
      { point: "read the cache, avoid no-op writes", terms: ["cache", "no-op", "writes"] },
      { point: "one leader, so scale out by sharding", terms: ["shard", "leader"] },
    ],
  },
  {
    id: "12-testing-strategy",
    notebook,
    section,
    topic: "testing",
    difficulty: "intermediate",
    question: "How would you test a controller? Compare a fake client, envtest and a kind cluster.",
    answer: `A fake client is fast and good for the reconcile's decisions in isolation, but it re-implements the API
server poorly: no resourceVersion conflicts, no real watch, no validation, so tests pass that production fails. And
tests that assert the exact sequence of calls break on harmless refactors.

envtest runs the real kube-apiserver and etcd: real validation, 409s, watches and finalizers, in seconds. It has no
built-in controllers, so no garbage collection, no namespace deletion, no Pods. kind is a whole cluster: slower,
but it shows the interaction with the built-in controllers. In every case assert outcomes (the state of the world)
with eventually/consistently, not calls. Notebook 00 runs the same code on each backend and says what envtest
cannot show; the labs are graded that way. Section 5 collects this question.`,
    keyPoints: [
      {
        point: "fake clients miss real API behaviour",
        terms: ["fake", "re-implement", "conflict", "validation"],
      },
      {
        point: "envtest: real apiserver, no built-in controllers",
        terms: ["envtest", "garbage", "no controller"],
      },
      { point: "kind: a full cluster, slower", terms: ["kind", "slow", "full cluster", "whole cluster"] },
      {
        point: "assert outcomes with eventually/consistently",
        terms: ["eventually", "consistently", "outcome", "state"],
      },
    ],
  },
  {
    id: "12-update-patch-apply",
    notebook,
    section,
    topic: "api-basics",
    difficulty: "advanced",
    question:
      "When would a controller use Update, a merge or JSON patch, or server-side apply? What does field ownership buy you?",
    answer: `Update (PUT) replaces the whole object and carries the resourceVersion it was read at: right when the new
value depends on the whole current object, because a 409 tells you someone changed it first. A merge or JSON patch
changes only the named fields and, without a resourceVersion, never conflicts: right for a field you alone own
(notebook 11 fixes a 409 storm that way), but it overwrites blindly.

Server-side apply sends the fields you want to own; the server records owners per field (managedFields), merges your
intent with others', and reports a conflict only when two managers claim the same field. Controllers that share an
object with users or other controllers avoid both lost updates and 409 storms that way, and removing a field from
your applied config removes it from the object. Section 5 collects this question.`,
    keyPoints: [
      {
        point: "update: whole object, resourceVersion, 409 on change",
        terms: ["whole object", "resourceversion", "409"],
      },
      { point: "patch: only named fields, no precondition", terms: ["patch", "only", "field"] },
      {
        point: "server-side apply: managedFields, conflicts per field",
        terms: ["server-side apply", "managedfields", "owner"],
      },
    ],
  },
  {
    id: "12-generation-observed",
    notebook,
    section,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "What is the difference between metadata.generation, metadata.resourceVersion and status.observedGeneration?",
    answer: `resourceVersion changes on every write to the object, spec, status or metadata: it is the version of the
object in the store, used for optimistic concurrency and watches. generation is a counter the server increments when
the intent changes: the spec of a built-in kind, anything outside metadata and status for a custom resource with a
status subresource, and once more when deletionTimestamp is first set on an object held by finalizers.
observedGeneration is written by the controller into status: the generation it last acted on.

Together they answer "has the controller seen my latest change?": observedGeneration equal to generation means the
status describes the current spec; smaller means the controller has not caught up, so a Ready condition is about an
older spec (notebook 06). They also let a controller ignore its own status writes, since those change
resourceVersion but not generation. Section 5 collects this question.`,
    keyPoints: [
      {
        point: "resourceVersion changes on every write",
        terms: ["every write", "any write", "every change"],
      },
      { point: "generation counts spec changes", terms: ["spec"] },
      {
        point: "observedGeneration: what the controller last acted on",
        terms: ["acted", "last", "observed"],
      },
      {
        point: "equal means status describes the current spec",
        terms: ["caught up", "current spec", "equal"],
      },
    ],
  },
  {
    id: "12-status-subresource",
    notebook,
    section,
    topic: "operators",
    difficulty: "intermediate",
    question: "Why is status a separate subresource, and what does a controller need to write it?",
    answer: `Spec is the user's intent, status is the controller's report, and different actors own them. With the
/status subresource, a write to the main resource ignores status and a write to /status ignores spec, so a user's
apply cannot wipe the status and a controller's status update cannot change the spec by accident. It also lets RBAC
separate them: users may edit the resource but not \`resource/status\`; the controller needs \`update\` or \`patch\` on
\`<resource>/status\`, in addition to get, list and watch on the resource.

And since status writes do not bump generation, observedGeneration can say which spec a status describes
(notebook 06). Section 5 collects this question.`,
    keyPoints: [
      {
        point: "spec is intent, status is the report; different owners",
        terms: ["intent", "report", "owner"],
      },
      { point: "writes to one ignore the other", terms: ["ignore", "cannot wipe", "separate"] },
      { point: "RBAC on resource/status", terms: ["rbac", "/status", "permission"] },
      { point: "status writes do not bump generation", terms: ["generation"] },
    ],
  },
  {
    id: "12-mutating-cache",
    notebook,
    section,
    topic: "cache",
    difficulty: "intermediate",
    question: "Why must a reconcile never modify an object it got from the informer's cache?",
    answer: `The cache hands out the very object it stores, shared by every handler and lister in the process (one
shared informer, notebook 03). Changing it in place changes what every other reader sees, makes the cache disagree
with the server until the next event overwrites it, and can hide a change you meant to write (you compare the object
with itself). In Go it is also a data race.

So copy first (client-go's \`DeepCopy\`, a structured clone or spread here), change the copy and send the copy;
the cache changes when the watch event for your write arrives, which is also why a read right after a write may
still show the old value (notebook 02). Section 5 collects this question.`,
    keyPoints: [
      { point: "the cache returns shared objects", terms: ["shared", "same object", "every reader"] },
      { point: "mutation corrupts what others read / races", terms: ["corrupt", "race", "disagree"] },
      { point: "deep copy before changing", terms: ["deepcopy", "deep copy", "copy"] },
    ],
  },
  {
    id: "12-map-child-events",
    notebook,
    section,
    topic: "informer",
    difficulty: "intermediate",
    question: "Your controller creates child objects. How do events on a child get the parent reconciled?",
    answer: `Watch the child resource too and map each child event to the key of its parent. With owner references
this is mechanical: read the child's controller ownerReference, check the kind, and enqueue the owner's
namespace/name (controller-runtime's \`Owns()\` / \`EnqueueRequestForOwner\`). Without an owner reference (a
cross-namespace or external relationship), use a label carrying the parent's name or an index on a field and a map
function that finds the parents to enqueue.

The parent's reconcile then recomputes everything, so it does not matter which child changed or how
(level-triggered, notebook 05); notebook 08 shows the owner references and the capstone (notebook 10) wires the
child informer. Section 5 collects this question.`,
    keyPoints: [
      { point: "watch the children too", terms: ["watch the child", "child informer", "owns", "watch"] },
      {
        point: "map via the controller ownerReference to the parent key",
        terms: ["ownerreference", "owner"],
      },
      {
        point: "labels or an index when there is no owner reference",
        terms: ["label", "index", "map function"],
      },
      { point: "the parent reconcile recomputes everything", terms: ["level", "recompute", "everything"] },
    ],
  },
  {
    id: "12-non-leaders",
    notebook,
    section,
    topic: "leader-election",
    difficulty: "advanced",
    question:
      "Why run three replicas with leader election instead of one replica, and what still runs on the replicas that do not lead?",
    answer: `One replica is down for as long as a restart takes: reschedule, image pull, start, a full LIST to sync the
caches. With standbys, a new leader takes over after the lease expires (notebook 09), and standbys can keep warm
caches so they reconcile almost at once (a choice: kube-scheduler's standbys are warm, kube-controller-manager's
and, by default, controller-runtime's are cold and LIST after winning). Leader election is not for throughput: only
the leader reconciles.

Non-leaders can still run what is safe in parallel: informers and caches (if you choose warm standbys), webhooks (admission
and conversion must answer on every replica), metrics and health endpoints. They must not write as the controller.
The cost is a failover delay of about a lease duration (up to leaseDurationMs + 4.4 x retryPeriodMs, about 24 s with the
defaults), and a leader that cannot renew must stop acting before its lease runs out. Section 5 collects this question.`,
    keyPoints: [
      { point: "faster failover than a restart", terms: ["failover", "restart", "takeover"] },
      { point: "only the leader reconciles; not for throughput", terms: ["only the leader", "throughput"] },
      { point: "non-leaders can keep caches warm and serve webhooks", terms: ["cache", "webhook", "warm"] },
      { point: "a leader that cannot renew must stop", terms: ["renew", "stop"] },
    ],
  },
  {
    id: "12-design-secret-copier",
    notebook,
    section,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "Design a controller that copies a Secret into every namespace labelled `team=payments` and keeps the copies in sync. What do you watch, what is the key, and what goes wrong?",
    answer: `Watch three things with shared informers: the source Secret, Namespaces (with the label selector) and the
copies (labelled as ours). Pick one key for the whole job, or one key per target namespace: per namespace keeps each
reconcile small and lets a failure in one namespace retry alone. The reconcile for a namespace reads the source and
the copy from the cache and creates or updates the copy only if it differs (no hot loop, notebook 11); copies in
namespaces that lost the label are deleted. Map every event to keys: a source change enqueues every labelled
namespace, a namespace or copy change enqueues that namespace.

What goes wrong: a stale cache right after your create (AlreadyExists: treat it as success), a user editing a copy
(level-triggered repair), namespaces being deleted (skip those Terminating), and cleanup when the source goes (an
owner reference cannot cross namespaces, so use a finalizer on the source or a label-driven sweep). Section 5
collects this question.`,
    keyPoints: [
      { point: "watch source, namespaces and copies", terms: ["namespace", "source", "copies", "watch"] },
      { point: "a clear key (per namespace) and event mapping", terms: ["key", "per namespace", "enqueue"] },
      { point: "write only when different", terms: ["differ", "only if", "no-op", "hot loop"] },
      {
        point: "cleanup across namespaces needs a finalizer or sweep, not owner references",
        terms: ["finalizer", "cross namespace", "cannot cross", "sweep"],
      },
    ],
  },
  {
    id: "12-events-two-meanings",
    notebook,
    section,
    topic: "operators",
    difficulty: "basic",
    question:
      "Kubernetes has watch events and it has Event objects. What is the difference, and what should a controller record as an Event?",
    answer: `A watch event (ADDED, MODIFIED, DELETED, BOOKMARK) is how the API server streams changes to a watcher; it is
not stored anywhere and a controller reacts to it through its informer (notebook 01). An Event object
(\`core/v1 Event\`) is a record a component writes for humans: "why is my object in this state?", shown by
\`kubectl describe\` and \`kubectl get events\`, kept for about an hour, aggregated when the same thing repeats.

A controller records Events for what a user must be able to see without reading its logs: a decision it made
(scaled, created a child), something it refused (an object controlled by someone else), a failure that needs a human
(cleanup keeps failing). Not one per reconcile: Events are objects and cost writes. Notebook 11 diagnoses a stuck
deletion from the Events a controller did and did not write; section 5 collects this question.`,
    keyPoints: [
      {
        point: "watch events stream changes, nothing stored",
        terms: ["watch", "stream", "added", "modified"],
      },
      { point: "Event objects are records for humans", terms: ["human", "describe", "get events", "record"] },
      {
        point: "record decisions, refusals and failures, not every reconcile",
        terms: ["decision", "failure", "not every", "refus"],
      },
    ],
  },
  {
    id: "12-error-requeue-backoff",
    notebook,
    section,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "A reconcile can return an error, ask to be requeued, or ask to run again after a delay. What does each do to the key's backoff?",
    answer: `An error puts the key back through the rate limiter (\`AddRateLimited\`) without \`Forget\`: the per-key
exponential backoff grows (5 ms, 10 ms, 20 ms... up to 1000 s in client-go's default) and the error is counted and
logged. \`Requeue: true\` does the same without an error, so it also backs off. \`RequeueAfter: d\` forgets the key's
failures and adds it after exactly \`d\`, outside the rate limiter: right for periodic checks and for waiting on
something external. Success forgets the key, so its next failure starts the backoff from the bottom again.

The trade-off: an error makes a failure visible and slows down retries of something broken; RequeueAfter keeps
a steady rhythm but hides that anything is wrong. The runner in \`src/controller/controller.ts\` implements
this table (notebook 04 draws the backoff curve); section 5 collects this question.`,
    keyPoints: [
      {
        point: "error: rate-limited requeue, backoff grows",
        terms: ["addratelimited", "rate-limited", "backoff grows", "exponential"],
      },
      { point: "requeue: also through the limiter", terms: ["requeue"] },
      {
        point: "requeueAfter: fixed delay, backoff reset",
        terms: ["requeueafter", "fixed", "forget", "reset"],
      },
      { point: "success forgets the key", terms: ["forget", "success"] },
    ],
  },
  {
    id: "12-read-your-writes",
    notebook,
    section,
    topic: "cache",
    difficulty: "advanced",
    question:
      "Your reconcile creates a child, and the next reconcile, a few milliseconds later, does not find it in the cache and creates a second one. Why, and how do you design around it?",
    answer: `The cache is filled by the watch, not by your writes: between your create returning and the ADDED event
reaching the informer there is a window in which the cache does not have the child yet. A reconcile that runs in
that window (another event for the parent) reads "no child" and creates another one.

Designs that survive it: deterministic names (the second create fails with AlreadyExists, which the reconcile treats
as "already done"); expectations, as kube-controller-manager's ReplicaSet controller keeps them (remember "I created
N, wait until the cache has seen them" before acting again); or requeue and re-check instead of acting on a count
that might be stale. Generated names (\`generateName\`) make the duplicate silent, so avoid them for children whose
number matters. Notebook 02 shows the cache lagging a write; section 5 collects this question.`,
    keyPoints: [
      {
        point: "the cache learns of your write only through the watch",
        terms: ["watch", "lag", "not yet", "window"],
      },
      {
        point: "deterministic names make the duplicate fail with AlreadyExists",
        terms: ["deterministic", "alreadyexists", "already exists"],
      },
      { point: "expectations: wait until the cache saw your writes", terms: ["expectation"] },
      { point: "generateName hides duplicates", terms: ["generatename", "generated name"] },
    ],
  },
  {
    id: "12-silent-watch",
    notebook,
    section,
    topic: "watch",
    difficulty: "advanced",
    question:
      "In production your controller's informer sometimes stops receiving events after an hour, with no error. What could cause it and how do you make the controller robust?",
    answer: `A watch is one long HTTP response. Something between client and server (a load balancer idle timeout, a
NAT table, a proxy) can drop the connection without either side noticing, and a client that never times out its
read waits for ever on a dead stream: no error, no events. The TypeScript client has had reports of exactly this,
and its informer has a second way to go quiet: \`makeInformer\` (client-node 1.4) relists after a 410 but, after
any other WATCH or LIST failure (a 429, a 500, a refused connection), calls its \`error\` handlers and does not
restart; with no handler that restarts it, it stops silently (notebook 02 section 5 shows it). client-go's
reflector backs off and tries again until it is stopped.

Defences, in layers: watches with a server-side timeout (\`timeoutSeconds\`, client-go picks 5 to 10 minutes at
random) so the reflector re-watches regularly from its last resourceVersion; TCP keepalives or HTTP/2 pings so dead
connections are noticed; a resync period, so even a missed change is reconciled eventually (level-triggered,
notebook 05); and a health check that reports an informer with no progress. Notebooks 01 and 02 drop watches on
purpose and show the reflector resuming; section 5 collects this question.`,
    keyPoints: [
      {
        point: "a dead connection nobody notices",
        terms: ["dead", "load balancer", "idle", "proxy", "silently"],
      },
      {
        point: "client-node's informer stops after a non-410 error unless its error handler restarts it",
        terms: ["error handler", "restart", "429", "start again", "on('error'", "stops"],
      },
      {
        point: "watch timeouts, then re-watch from the last resourceVersion",
        terms: ["timeout", "re-watch", "rewatch", "resourceversion"],
      },
      { point: "keepalives / pings", terms: ["keepalive", "ping"] },
      { point: "resync and level-triggered reconcile heal missed changes", terms: ["resync", "level"] },
    ],
  },
  {
    id: "12-controller-rbac",
    notebook,
    section,
    topic: "operators",
    difficulty: "intermediate",
    question: "What RBAC permissions does a typical controller need, and why each?",
    answer: `For each resource it watches: \`get\`, \`list\` and \`watch\` (the informer's LIST and WATCH; without them the
cache never syncs, notebook 11). For the children it manages: \`create\`, \`update\`/\`patch\` and \`delete\`. For its
own resource: \`update\` or \`patch\` on \`<resource>/status\` (a separate subresource, so a separate rule) and on the
resource itself if it adds or removes finalizers; \`update\` on \`<resource>/finalizers\` if it sets
\`blockOwnerDeletion\` on its children's owner references (\`setControllerReference\` does), which the
OwnerReferencesPermissionEnforcement admission plugin demands where it is on (notebook 08, section 4). \`create\` and \`patch\` on \`events\` to record Events, and
\`get\`, \`create\` and \`update\` on \`leases\` in its namespace for leader election (notebook 09).

Scope: a Role in one namespace if it watches one namespace, a ClusterRole if it watches all. Least privilege is
the point: a controller that may delete anything turns a bug into an outage. Section 5 collects this question.`,
    keyPoints: [
      { point: "get/list/watch for informers", terms: ["list", "watch"] },
      { point: "write verbs on children", terms: ["create", "delete", "children"] },
      { point: "the status subresource needs its own rule", terms: ["/status", "status"] },
      {
        point: "<kind>/finalizers update for blockOwnerDeletion",
        terms: ["/finalizers", "blockownerdeletion"],
      },
      { point: "events and leases", terms: ["events", "lease"] },
      { point: "Role vs ClusterRole; least privilege", terms: ["clusterrole", "least privilege", "role"] },
    ],
  },
  {
    id: "12-webhook-or-controller",
    notebook,
    section,
    topic: "operators",
    difficulty: "advanced",
    question: "When would you use an admission webhook instead of, or besides, a controller?",
    answer: `A controller acts after the write: it sees the stored object and moves the world toward it, eventually. A
webhook acts during the write: the API server calls it before storing, and it can reject the request (validating)
or change it (mutating). So use a webhook for what must hold before anything is stored: refuse an invalid spec with a
clear message instead of reporting it later in a condition, set defaults that everyone must see from the first
version. Use a controller for everything that takes time, talks to the outside world or depends on other objects.

The costs of a webhook: it sits on the API server's write path (latency, and an outage of the webhook can block
writes unless its failure policy allows them), and it needs TLS and a deployment of its own. Many rules need no
webhook at all: CRD schema validation and CEL rules run in the API server. Notebooks 05 and 06 show the controller
side (reconcile, conditions); section 5 collects this question.`,
    keyPoints: [
      {
        point: "a webhook acts during the write, a controller after",
        terms: ["during", "before storing", "after"],
      },
      { point: "reject or default before storage", terms: ["reject", "validat", "default", "mutat"] },
      {
        point: "it is on the write path: latency, failure policy",
        terms: ["latency", "failure policy", "block", "write path"],
      },
      { point: "schema validation and CEL may suffice", terms: ["cel", "schema"] },
    ],
  },
]);
