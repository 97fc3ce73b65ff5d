import { defineQuestions } from "../question.js";

const notebook = "11-debugging-controllers";

/**
 * Questions for `notebooks/11-debugging-controllers.ipynb`: the failures people meet in their first operator
 * (hot loops, a blind informer, a stuck queue, 409 storms, objects stuck in Terminating) and the measurement that
 * gives each away, as an interviewer asks about them ("walk me through how you would debug...").
 */
export const debugging11 = defineQuestions([
  {
    id: "11-hot-loop",
    notebook,
    section: "2. A hot loop: the controller that wakes itself up",
    topic: "debugging",
    difficulty: "intermediate",
    question:
      "Your controller reconciles the same few objects many times a second although nobody changes them. What is the likely cause, and how do you confirm it?",
    answer: `Almost always the controller triggers itself: its reconcile writes to an object it also watches, the write
changes the resourceVersion, the watch delivers a MODIFIED event, the handler enqueues the key, and the next
reconcile writes again. The classic form is a timestamp (\`status.lastReconcileTime\`) or a counter written on
every pass.

Confirm it by comparing two rates: reconciles per second (controller-runtime's \`controller_runtime_reconcile_total\`)
and your controller's own writes (\`apiserver_request_total\` for PUT/PATCH, or the update counter of the embedded
server). If they climb together while no one else writes, the controller is its own trigger. \`kubectl get -w\`
shows the resourceVersion moving. Section 2 measures both numbers side by side for three ConfigMaps.`,
    keyPoints: [
      {
        point: "the controller's own write triggers the next event",
        terms: ["own write", "triggers itself", "its own", "modified event", "writes again"],
      },
      {
        point: "a value that changes on every pass (timestamp, counter)",
        terms: ["timestamp", "counter", "lastreconcile", "time"],
      },
      {
        point: "compare reconcile rate with the controller's write rate",
        terms: ["reconcile rate", "reconcile_total", "request", "metric", "compare"],
      },
    ],
  },
  {
    id: "11-no-op-write",
    notebook,
    section: "2. A hot loop: the controller that wakes itself up",
    topic: "reconcile",
    difficulty: "basic",
    question:
      "Why should a reconcile compare desired and actual state and skip the write when they match, instead of always writing the desired object?",
    answer: `Because a write is not free and is not silent. Every write that changes something costs a request, a new
resourceVersion and a watch event for every watcher of that resource, including the controller itself, which then
reconciles again. A reconcile that only writes a diff converges: the second pass finds nothing to do and the
controller goes quiet. The apiserver does skip an update that changes nothing byte for byte (no new
resourceVersion, no event), but only if the desired state contains nothing that changes by itself.

The trade-off is a little code to compare (or a patch of only the fields you own) against a controller that
never settles. Section 2's fixed reconcile writes once per object and then reconciles zero times in a quiet second.`,
    keyPoints: [
      { point: "writes cause events and more reconciles", terms: ["event", "reconcile again", "trigger"] },
      {
        point: "a reconcile that writes only a diff converges",
        terms: ["diff", "converge", "nothing to do"],
      },
      {
        point: "nothing in the desired state may change by itself",
        terms: ["timestamp", "deterministic", "by itself"],
      },
    ],
  },
  {
    id: "11-generation-predicate",
    notebook,
    section: "2. A hot loop: the controller that wakes itself up",
    topic: "operators",
    difficulty: "advanced",
    question:
      "What does controller-runtime's GenerationChangedPredicate do, and why is it not a complete fix for a hot loop?",
    answer: `It drops update events in which \`metadata.generation\` did not change. For a custom resource with a
status subresource, the server bumps \`generation\` on any change outside \`metadata\` and \`status\` (the spec, in
practice), so the controller's own status writes no longer wake it up, and neither do label or annotation changes.
One metadata change does get through: setting \`deletionTimestamp\` on an object held by finalizers bumps the
generation, so the start of a deletion is not hidden.

It is not a complete fix because it hides the symptom of one kind of write only. A controller that writes the
spec (or a child object it watches) on every pass still loops; the predicate also hides changes you may care about
(labels, annotations, finalizers added by someone else), and resyncs still deliver every object. The real fix is a reconcile that writes only what differs, as in section 2;
the predicate is an optimisation on top.`,
    keyPoints: [
      {
        point: "filters updates where metadata.generation is unchanged",
        terms: ["generation", "unchanged", "filter"],
      },
      {
        point: "status writes do not bump generation, so they stop waking the controller",
        terms: ["status", "subresource", "spec"],
      },
      { point: "spec or child writes can still loop", terms: ["spec", "child", "still loop"] },
      { point: "also hides label/annotation changes", terms: ["label", "annotation", "hides"] },
    ],
  },
  {
    id: "11-blind-controller",
    notebook,
    section: "3. A controller that never sees its objects",
    topic: "debugging",
    difficulty: "basic",
    question:
      "A controller runs, logs nothing, and does nothing, while kubectl shows the objects it should handle. Where do you look first?",
    answer: `At what its cache holds compared with what the API holds. If the informer has synced and its cache is
empty (or smaller), it watches something else: the wrong namespace (a flag defaulting to \`default\`), a label or
field selector that the objects do not match, or the wrong resource/version. If it never synced, the informer was
not started (a forgotten \`factory.start()\`, or called before \`informerFor\`) or its LIST fails, typically RBAC:
the service account may not list or watch that resource.

Section 3 runs one correct and three misconfigured controllers side by side and reads, for each, whether its cache
synced, how many objects it holds and how many reconciles it ran. Printing the scope at startup makes this a one
line diagnosis.`,
    keyPoints: [
      {
        point: "compare the cache's contents with the API's",
        terms: ["cache", "compare", "lister", "kubectl get"],
      },
      { point: "wrong namespace or selector", terms: ["namespace", "selector", "label"] },
      {
        point: "informer not started or never synced",
        terms: ["not started", "start()", "synced", "hassynced"],
      },
      { point: "RBAC can forbid the list/watch", terms: ["rbac", "forbidden", "403", "permission"] },
    ],
  },
  {
    id: "11-wait-for-sync",
    notebook,
    section: "3. A controller that never sees its objects",
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Why must a controller wait for its informers' caches to sync before its workers start, and what happens if it does not?",
    answer: `Before the first LIST has been processed, the cache is empty or partial. A reconcile that reads it cannot
tell "not listed yet" from "does not exist", so it acts on a false picture: it recreates children that exist
(AlreadyExists errors, or duplicates with generated names), or concludes that objects were deleted and cleans up
after them. client-go's \`WaitForCacheSync\` and controller-runtime's start sequence exist for this.

The cost is that a controller whose informer never syncs never does anything, so it must fail loudly: the package's
\`Controller\` gives up after \`cacheSyncTimeoutMs\` with an error naming the cache sync, which is what section 3's
"informer never started" row shows, and a real deployment should fail its readiness probe.`,
    keyPoints: [
      {
        point: "before sync the cache is empty or partial",
        terms: ["empty", "partial", "not listed", "incomplete"],
      },
      {
        point: "reconciles would act on a false picture (recreate, delete)",
        terms: ["recreate", "duplicate", "delete", "wrong decision", "false"],
      },
      {
        point: "a sync that never happens must fail loudly (timeout, readiness)",
        terms: ["timeout", "readiness", "error", "loud"],
      },
    ],
  },
  {
    id: "11-rbac-forbidden",
    notebook,
    section: "3. A controller that never sees its objects",
    topic: "debugging",
    difficulty: "intermediate",
    question:
      "On a real cluster your controller's informer never syncs and the logs repeat 'failed to list ... is forbidden'. What is going on and how do you fix it?",
    answer: `The controller's service account lacks RBAC permission for the informer's LIST (and WATCH, which it needs
right after). The reflector retries the failed LIST with backoff for ever, so the informer never reports synced and
a controller that waits for the sync (section 3) never starts its workers; nothing crashes, the only traces are the
repeated 403s and the missing sync.

The fix is a Role or ClusterRole granting \`get\`, \`list\` and \`watch\` on that resource (a ClusterRole if the
informer watches all namespaces, since a namespaced Role cannot cover a cluster-wide list), bound to the service
account. \`kubectl auth can-i list configmaps --as=system:serviceaccount:NS:NAME\` confirms it before you redeploy.`,
    keyPoints: [
      { point: "RBAC forbids list or watch (403)", terms: ["rbac", "403", "forbidden", "permission"] },
      {
        point: "the reflector retries, the cache never syncs, workers never start",
        terms: ["retr", "never sync", "synced", "backoff"],
      },
      {
        point: "grant get/list/watch with a (Cluster)Role and binding",
        terms: ["clusterrole", "role", "binding", "list", "watch"],
      },
      { point: "verify with kubectl auth can-i", terms: ["can-i", "auth"] },
    ],
  },
  {
    id: "11-blocked-reconcile",
    notebook,
    section: "4. A queue that never drains",
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "Some objects are never reconciled, and no errors are logged. Which workqueue metrics tell you that a reconcile is blocked?",
    answer: `\`workqueue_depth\` stays above zero (keys wait), \`workqueue_longest_running_processor_seconds\` grows by one
second per second (the oldest reconcile never finishes), and \`workqueue_unfinished_work_seconds\` grows with it.
The reconcile counter stops moving and the error counter stays at zero, because nothing fails: a worker is simply
waiting, usually on a network call without a timeout.

The fix is a deadline on every external call (a context timeout in Go, an AbortSignal or a race against a timer
here), so the reconcile fails, is retried with backoff and frees the worker. Section 4 draws the longest-running
age as a straight rising line and then shows the same controller with a 200 ms deadline reconciling the other keys.`,
    keyPoints: [
      { point: "queue depth stays up", terms: ["depth"] },
      {
        point: "longest running processor / unfinished work keeps growing",
        terms: ["longest", "unfinished", "running"],
      },
      { point: "no errors: the worker is waiting", terms: ["no error", "waiting", "blocked", "hang"] },
      { point: "a deadline on external calls", terms: ["timeout", "deadline", "context"] },
    ],
  },
  {
    id: "11-more-workers",
    notebook,
    section: "4. A queue that never drains",
    topic: "workqueue",
    difficulty: "advanced",
    question:
      "A colleague proposes raising MaxConcurrentReconciles from 1 to 10 because the queue backs up behind a slow reconcile. What do you answer?",
    answer: `It treats the symptom. With more workers, other keys get through while one worker hangs, so the backlog
shrinks, but each key that hangs still holds a worker for ever: ten hung keys and the controller is stuck again,
with ten times the open connections to whatever is not answering. More workers are right for a controller that is
CPU- or latency-bound on healthy calls; they are wrong as a cure for calls that never return.

The fix is a deadline (the reconcile fails and is retried with backoff, and the failure is counted and visible) and
then, if throughput is still short, more workers. The queue still guarantees that one key is never processed by two
workers at once, so raising the count is safe for correctness. Section 4 shows the deadline fix; its try-it prompt
asks what three workers change.`,
    keyPoints: [
      {
        point: "hides the symptom; each hung key takes a worker",
        terms: ["hide", "symptom", "each", "hung"],
      },
      { point: "add a deadline / timeout first", terms: ["timeout", "deadline"] },
      {
        point: "more workers are fine for throughput, safe because a key never runs twice at once",
        terms: ["throughput", "two workers", "once", "same key"],
      },
    ],
  },
  {
    id: "11-forgotten-done",
    notebook,
    section: "4. A queue that never drains",
    topic: "workqueue",
    difficulty: "advanced",
    question:
      "In a hand-written worker loop, what happens to a key if the worker never calls Done, and how would you tell it apart from a blocked reconcile?",
    answer: `The key stays in the queue's processing set for ever. The next time the object changes, the key goes into
the dirty set and waits for that Done, because the queue never hands a key out while it is processing (the
guarantee that stops two workers from handling one key). So every later change to that object is silently ignored,
and \`workqueue_unfinished_work_seconds\` grows without bound.

Told apart from a blocked reconcile: here the workers are idle and waiting in Get, and other keys keep flowing;
only the keys that were once handed out are frozen. With a blocked reconcile a worker is busy and everything behind
it waits. The fix is \`defer queue.Done(key)\` (a \`finally\` block), which is what a controller framework does for
you. Section 4 looks inside the queue with \`state()\` after changing one object.`,
    keyPoints: [
      { point: "the key stays in processing", terms: ["processing"] },
      {
        point: "later adds are parked in dirty and never handed out",
        terms: ["dirty", "never handed", "parked", "ignored"],
      },
      { point: "workers idle, unlike a blocked reconcile", terms: ["idle", "not busy", "other keys"] },
      { point: "call Done in defer/finally", terms: ["defer", "finally"] },
    ],
  },
  {
    id: "11-409-storm",
    notebook,
    section: "5. A 409 storm",
    topic: "debugging",
    difficulty: "intermediate",
    question: "Your controller logs many 409 Conflict errors. When is a 409 normal, and when is it a bug?",
    answer: `A 409 on update means the resourceVersion you sent is no longer current: someone wrote after you read. Now
and then that is normal (a user, another controller, a status writer), and the answer is to re-read and try again,
which a requeue does.

It is a bug when it is a storm: the same keys conflict over and over and never converge. That means the window
between your read and your write is longer than the interval between other writers' writes (a slow call in the
middle of a read-modify-write, or a busy object), or that two controllers fight over the same field. Measure the
409 rate per key and whether the object ever reaches the desired state; section 5 shows both with an 80 ms window
against a writer that writes every 20 ms.`,
    keyPoints: [
      {
        point: "409 means a stale resourceVersion (optimistic concurrency)",
        terms: ["resourceversion", "stale", "optimistic", "someone wrote"],
      },
      { point: "occasional 409: re-read and retry", terms: ["retry", "re-read", "requeue"] },
      {
        point: "a storm: long read-to-write window or two writers on one field",
        terms: ["window", "two controllers", "same field", "fight", "busy"],
      },
    ],
  },
  {
    id: "11-patch-vs-update",
    notebook,
    section: "5. A 409 storm",
    topic: "api-basics",
    difficulty: "advanced",
    question:
      "Why does a patch of one field avoid the conflicts that a full update hits, and what protection do you give up?",
    answer: `An update (PUT) sends the whole object with the resourceVersion it was read at, and the server refuses it if
the object changed since (409). A JSON or merge patch names only the fields it changes and, unless it includes a
resourceVersion, carries no precondition: the server applies it to the current version. So a controller that
patches only the fields it owns never conflicts with writers of other fields, which is why section 5's fix
converges with zero 409s.

What you give up is the check itself: if your new value depends on another field you read (a decision made on a
stale copy), a patch writes it anyway. Then either include the resourceVersion (or a JSON patch \`test\` op) to get
the check back, or re-read right before writing and retry on conflict. Server-side apply adds field ownership on top
and reports a conflict only when two managers claim the same field.`,
    keyPoints: [
      {
        point: "update carries the resourceVersion precondition; a patch does not",
        terms: ["precondition", "resourceversion", "current version"],
      },
      {
        point: "patch only the fields you own",
        terms: ["own", "only the field", "fields you"],
      },
      {
        point: "you lose the stale-read protection",
        terms: ["stale", "lose", "no check", "overwrite"],
      },
      {
        point: "server-side apply tracks field ownership",
        terms: ["server-side apply", "ssa", "managedfields"],
      },
    ],
  },
  {
    id: "11-retry-on-conflict",
    notebook,
    section: "5. A 409 storm",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "What does client-go's retry.RetryOnConflict do, and when would you use it instead of returning the error to the queue?",
    answer: `It runs a function that reads the latest object (a live GET, not the cache), applies a change and updates;
if the update fails with 409 it waits a little (a short backoff) and runs the function again, a few times at most.
Each attempt starts from a fresh read, so the window between read and write is one round trip.

In a reconcile, returning the error is often enough: the key is requeued with backoff and the next reconcile reads
the cache again. RetryOnConflict is for a write in the middle of other work you do not want to repeat (an external
call that already happened) or outside a controller (a CLI, a webhook). Either way the change must be recomputed
from the fresh object, never replayed from the stale one. Section 5 names it as the fix when a patch is not
enough.`,
    keyPoints: [
      { point: "re-reads the latest object on each attempt", terms: ["re-read", "latest", "fresh", "get"] },
      { point: "retries only on 409 with a short backoff", terms: ["409", "conflict", "backoff"] },
      {
        point: "in a controller, requeueing is often enough",
        terms: ["requeue", "return the error", "queue"],
      },
      {
        point: "recompute the change from the fresh object",
        terms: ["recompute", "fresh object", "reapply"],
      },
    ],
  },
  {
    id: "11-stuck-terminating",
    notebook,
    section: "6. Stuck in Terminating",
    topic: "deletion",
    difficulty: "basic",
    question: "An object has been Terminating for an hour. How do you find out why?",
    answer: `Read its metadata. \`deletionTimestamp\` set means the deletion was accepted and the server is waiting;
\`finalizers\` names whom it waits for. Each finalizer belongs to some controller: find it, and check that it is
running, that it sees the object (its reconciles or logs after the delete) and what it reports (Events on the
object, conditions, its errors). Typical causes: the controller is not running or was uninstalled, its deletion
branch has a bug (it skips objects being deleted), or its cleanup of an external resource keeps failing.

For a Namespace, \`status.conditions\` lists what is left inside or which API could not be listed. Section 6 walks
through these steps with kubectl-style reads of the object and its Events.`,
    keyPoints: [
      { point: "deletionTimestamp is set; the server waits", terms: ["deletiontimestamp"] },
      { point: "finalizers name who must act", terms: ["finalizer"] },
      {
        point: "check the owning controller: running, sees it, what it reports",
        terms: ["controller", "running", "events", "logs"],
      },
      {
        point: "common causes: controller gone, buggy deletion branch, failing cleanup",
        terms: ["uninstall", "not running", "bug", "cleanup fail", "skips"],
      },
    ],
  },
  {
    id: "11-remove-finalizer-by-hand",
    notebook,
    section: "6. Stuck in Terminating",
    topic: "deletion",
    difficulty: "intermediate",
    question: "To unstick an object someone suggests `kubectl patch` to remove its finalizers. Is that OK?",
    answer: `It works, and it is the escape hatch, not the fix. Removing the finalizer tells the server that the cleanup
it stood for has happened; the object disappears at once. If it has not happened, whatever the finalizer protected
is leaked: a cloud bucket, a DNS record, a child in another cluster, now with nothing in Kubernetes pointing at it.

So first find out why the owning controller did not remove it (section 6's steps), fix that or do its cleanup by
hand, and only then remove the finalizer. It is reasonable when the controller is gone for good and you have
cleaned up yourself. In section 6 the hand patch is shown and rejected: the external record would have stayed.`,
    keyPoints: [
      { point: "it skips the cleanup the finalizer stands for", terms: ["skip", "cleanup"] },
      { point: "external resources leak", terms: ["leak", "orphan", "external"] },
      {
        point: "fix the controller or clean up by hand first",
        terms: ["first", "by hand", "fix the controller"],
      },
    ],
  },
  {
    id: "11-leaked-watch",
    notebook,
    section: "7. A leaked watch",
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Your controller's memory grows after every reconnect, and the API server shows more and more watches from it. What is happening?",
    answer: `It starts a new informer (or a whole factory) on every reconnect, config reload or restart of its
controller loop, and never stops the old one. Each informer keeps its own watch open and its own cache of every
object it watches, and keeps calling its handlers, so memory grows by one cache per restart, the server holds one
more long-running request per restart (\`apiserver_longrunning_requests{verb="WATCH"}\`), and the same event may be
handled several times.

The fix is ownership: whatever starts an informer, a controller or a timer keeps it and stops it (\`shutdown()\`,
\`stop()\`, cancelling the context in Go) before replacing it, and tests stop them after each test. Section 7 counts
the informers still running and the server's open watches after three restarts, then stops them and counts again.`,
    keyPoints: [
      {
        point: "a new informer per restart, the old one never stopped",
        terms: ["never stop", "not stopped", "new informer", "old one"],
      },
      { point: "each keeps a watch and a cache", terms: ["watch", "cache"] },
      { point: "memory and server watches grow", terms: ["memory", "longrunning", "open watches", "grow"] },
      { point: "stop what you start (shutdown, context cancel)", terms: ["stop", "shutdown", "cancel"] },
    ],
  },
  {
    id: "11-stop-in-tests",
    notebook,
    section: "7. A leaked watch",
    topic: "testing",
    difficulty: "basic",
    question:
      "Your controller's test suite gets slower and flakier as it grows, and sometimes a test sees events from a previous test. What would you check?",
    answer: `That every test stops what it started: informers, controllers, timers, the cluster connection. A
controller left running by one test keeps watching and reconciling while the next test runs: it sees the next test's
objects, writes to them, and its watch and cache cost memory and CPU that add up test after test. That is the leaked
watch of section 7 in a test suite.

Stop everything in \`afterEach\` (or use one per-test context and cancel it), give every test its own namespace so a
straggler cannot touch the next test's objects, and assert in a final check that nothing is left running (the
embedded server's open-watch count is one way). The workbook's notebooks end with a clean-up cell and must run twice
in a row for the same reason.`,
    keyPoints: [
      { point: "every test stops what it started", terms: ["stop", "afterEach", "cancel"] },
      {
        point: "a leftover controller reacts to the next test's objects",
        terms: ["next test", "leftover", "still running"],
      },
      { point: "a namespace per test", terms: ["namespace"] },
      { point: "check that nothing is left running", terms: ["open watch", "nothing is left", "leak"] },
    ],
  },
  {
    id: "11-debug-metrics",
    notebook,
    section: "8. A map for the next time",
    topic: "debugging",
    difficulty: "advanced",
    question:
      "Which metrics and signals would you expose from a controller so that you can debug it in production without attaching a debugger?",
    answer: `The controller's own: reconciles by result (\`controller_runtime_reconcile_total{result}\`), errors, and
reconcile duration; the workqueue's \`depth\`, \`adds_total\`, \`retries_total\`, \`queue_duration_seconds\` (how long a
key waits), \`work_duration_seconds\`, \`unfinished_work_seconds\` and \`longest_running_processor_seconds\`. The
client's request counts and latencies by verb and code (to see 409s and 429s). Around them: Events on the objects
for what a user must see, status conditions with observedGeneration, and logs keyed by the object.

Each bug of this notebook maps to one of them: the hot loop to the reconcile and write rates, the blind controller
to sync state and cache size, the stuck queue to depth and longest running, the storm to 409s, the stuck deletion to
finalizers and Events, the leaked watch to open watches. Section 8 draws that map.`,
    keyPoints: [
      {
        point: "reconcile counts by result, errors and duration",
        terms: ["reconcile_total", "reconcile", "duration"],
      },
      {
        point: "workqueue depth, retries, latency, longest running",
        terms: ["depth", "retries", "longest", "queue_duration"],
      },
      { point: "API request counts by code", terms: ["409", "request", "code", "429"] },
      { point: "Events and status conditions for users", terms: ["event", "condition"] },
    ],
  },
  {
    id: "11-go-generation-changed-predicate",
    notebook,
    section: "2. A hot loop: the controller that wakes itself up",
    topic: "debugging",
    difficulty: "advanced",
    question:
      "What does controller-runtime's predicate.GenerationChangedPredicate filter, when does it help, and when does it make a controller miss changes it needed?",
    answer: `It drops update events whose \`metadata.generation\` did not change. The API server bumps \`generation\` when the spec
changes (for a custom resource with the status subresource: any change outside \`metadata\` and \`status\`), so the
predicate keeps spec edits and drops status writes and metadata-only writes (labels, annotations, finalizers).
Create, delete and generic events pass.

It helps with the hot loop of section 2 in its common form: a reconcile that writes its own status or an
annotation no longer triggers itself, since those writes leave \`generation\` alone. It does not fix the bug: a
write that changes nothing still costs a request, and the reconcile should compare before it writes.

It hurts in three places. A controller that reacts to labels, annotations or finalizers never hears of them (add
\`predicate.LabelChangedPredicate\` or \`AnnotationChangedPredicate\` with \`predicate.Or\`). Kinds whose
generation the API server does not track (ConfigMaps and Secrets have none) lose every update, so it belongs on
\`For\` of your own kind, not on \`Owns\` of children whose drift you must see. And the resync no longer rescues a
dropped status write, since resync updates carry the same generation. The Go side is in the glossary
(notebooks/GLOSSARY.md) and in notebook 05's "The same in Go" section (test/go-snippets).`,
    keyPoints: [
      { point: "drops updates that leave metadata.generation unchanged", terms: ["generation"] },
      {
        point: "status and metadata writes do not bump generation",
        terms: ["status", "annotation", "label", "metadata"],
      },
      {
        point: "breaks the self-triggering loop but does not excuse no-op writes",
        terms: ["hot loop", "itself", "no-op", "compare"],
      },
      {
        point: "misses label/annotation changes and kinds without generation",
        terms: ["configmap", "miss", "labelchanged", "annotationchanged", "owns"],
      },
    ],
  },
]);
