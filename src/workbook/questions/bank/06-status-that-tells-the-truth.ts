import { defineQuestions } from "../question.js";

const notebook = "06-status-that-tells-the-truth";
const s1 = "1. generation and observedGeneration";
const s2 = "2. Conditions and Events from a reconcile";
const s3 = "3. 409 Conflict, and re-read and retry";
const s4 = "4. Reading your own write from a lagging cache";
const s5 = "5. Two controllers, one field";
const s6 = "6. A status that lies";
const s7 = "7. A status write wakes its own controller";

/** Questions for `notebooks/06-status-that-tells-the-truth.ipynb`: status a reader can trust. */
export const status06 = defineQuestions([
  {
    id: "06-observed-generation",
    notebook,
    section: s1,
    topic: "operators",
    difficulty: "basic",
    question: "What is status.observedGeneration for? How does a reader use it?",
    answer: `The API server bumps \`metadata.generation\` on every change of intent (the spec; for a custom resource, anything
outside \`metadata\` and \`status\`). The controller copies the generation it acted
on into \`status.observedGeneration\`. A reader compares the two: equal means the status (and its conditions)
describes the current spec; lower means the controller has not processed the latest spec yet, so even
\`Ready=True\` may be about the old one. \`kubectl rollout status\` and \`kubectl wait\` do exactly this comparison.

Section 1 ends in that state: generation 3, observedGeneration 2. Without the field a reader cannot tell "ready
with the new spec" from "ready with the old spec, new one not looked at". Conditions can carry their own
\`observedGeneration\` too, for the same reason.`,
    keyPoints: [
      { point: "generation counts spec changes", terms: ["spec change", "generation", "bump"] },
      {
        point: "the controller records the generation it acted on",
        terms: ["acted on", "processed", "copies", "records"],
      },
      {
        point: "equal = status is current; lower = stale",
        terms: ["equal", "stale", "behind", "not yet", "current"],
      },
      { point: "used by kubectl wait / rollout status", terms: ["kubectl wait", "rollout status", "reader"] },
    ],
  },
  {
    id: "06-generation-bumps",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "Which writes change metadata.generation, and why does a CRD want a /status subresource?",
    answer: `Changes to the spec (for custom resources: anything outside \`metadata\` and \`status\`), plus one metadata change:
the first \`deletionTimestamp\` on an object that finalizers hold bumps it too, so controllers notice a deletion has
started even behind a generation filter. Label and annotation changes, and writes to \`/status\`, leave it alone:
section 1's table shows 1, 2, 2, 2, 3 for create, spec, label, status, spec.

The \`/status\` subresource splits one object into two write paths: the main endpoint ignores changes to
\`status\`, and \`/status\` ignores everything but \`status\`. So users (and RBAC) own the spec, the controller owns
the status, neither can overwrite the other's half by accident, and a status write does not look like a new spec
(no generation bump). Without the subresource, status is just part of the object and every status write bumps
the generation, which makes observedGeneration useless.`,
    keyPoints: [
      {
        point: "spec changes (CRs: anything outside metadata/status) and deletionTimestamp bump generation",
        terms: ["spec change", "outside metadata", "deletiontimestamp", "not labels", "not status"],
      },
      {
        point: "status subresource separates the write paths",
        terms: ["separate", "subresource", "/status", "ignores"],
      },
      {
        point: "different owners and RBAC for spec and status",
        terms: ["rbac", "user", "owner", "permission"],
      },
    ],
  },
  {
    id: "06-conditions",
    notebook,
    section: s2,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "Why do Kubernetes APIs report conditions (type, status, reason, message) rather than a single phase field?",
    answer: `A phase is one value from a state machine, and real objects are in several states at once: an object can be
progressing *and* degraded, or ready *and* progressing (rolling out). Conditions are independent observations,
each True/False/Unknown, so tools can wait on one (\`kubectl wait --for=condition=Ready\`) without knowing the
others, and new condition types can be added without breaking clients that switch over a phase enum.

Each condition has a **reason** (CamelCase, stable, for programs and alerts), a **message** (for people, may
change), \`lastTransitionTime\` (moves only when status flips, so "Ready=False since 10 minutes" is meaningful) and
\`observedGeneration\`. Section 2's table shows all three conditions after the failed and the successful reconcile.`,
    keyPoints: [
      {
        point: "several independent states at once",
        terms: ["independent", "several", "at once", "multiple"],
      },
      { point: "reason for programs, message for humans", terms: ["reason", "message", "human", "machine"] },
      {
        point: "lastTransitionTime only on status change",
        terms: ["lasttransitiontime", "transition", "flip"],
      },
      { point: "extensible without breaking clients", terms: ["extensib", "add", "enum", "breaking"] },
    ],
  },
  {
    id: "06-events",
    notebook,
    section: s2,
    topic: "operators",
    difficulty: "basic",
    question: "What is the difference between an Event and a status condition? When do you use each?",
    answer: `A condition is the **current** state, overwritten on every change: "Ready=False because creating web-0 failed".
An Event is a **record of something that happened**, a separate object that expires (one hour by default), shown
by \`kubectl describe\` and \`kubectl get events\`: "Warning ChildWriteFailed creating web-0: 500".

Use conditions for what other programs act on (they must be there and current); use Events for the history a
human reads while debugging (they may be lost, aggregated or rate-limited). Section 2 writes both: the Warning Event
stays in the list after the condition has already turned True again. Never make a controller depend on reading
Events.`,
    keyPoints: [
      { point: "condition = current state", terms: ["current", "now", "state"] },
      { point: "event = something that happened, history", terms: ["happened", "history", "record", "log"] },
      {
        point: "events expire and are best effort",
        terms: ["expire", "hour", "best effort", "lost", "aggregat"],
      },
      {
        point: "programs read conditions, humans read events",
        terms: ["human", "debug", "describe", "program"],
      },
    ],
  },
  {
    id: "06-optimistic-concurrency",
    notebook,
    section: s3,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "Where does optimistic concurrency show up in a controller's life?",
    answer: `Everywhere a controller writes a whole object: every \`update\` and \`updateStatus\` carries the resourceVersion it
read, and the API server refuses it with 409 Conflict if the object changed since. That covers status writes
(section 3), updates of children from a stale cache (section 4), finalizer removal, and leader election (a Lease
is taken and renewed by an update with the resourceVersion, so two candidates cannot both win). Creates have their
own form: 409 AlreadyExists for a taken name, which deterministic names turn into idempotency.

It is optimistic because nothing is locked: writers race, one wins, the others notice and retry on fresh data. The
cost is retries under contention; the benefit is no lock to leak when a controller dies. Patches without a
resourceVersion (merge patch, server-side apply without force) skip the check for the fields they send, which is
what section 4's naive code got wrong.`,
    keyPoints: [
      {
        point: "updates carry resourceVersion; stale = 409",
        terms: ["resourceversion", "409", "conflict", "stale"],
      },
      {
        point: "status writes, child updates, finalizers",
        terms: ["status", "finalizer", "child", "update"],
      },
      { point: "leader election on a Lease", terms: ["lease", "leader"] },
      { point: "no locks: retry on conflict", terms: ["no lock", "retry", "optimistic"] },
    ],
  },
  {
    id: "06-on-conflict",
    notebook,
    section: s3,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "Your status update fails with 'the object has been modified; please apply your changes to the latest version'. What do you do?",
    answer: `Nothing dramatic: it is a 409 Conflict, optimistic concurrency working. Someone (a user, another controller, your
own previous write not yet in your cache) wrote the object after you read it. Re-read the object, apply your
change to the fresh copy, write again: \`retry.RetryOnConflict\` in client-go, the loop \`updateStatusWithRetry\` in
section 3, which lands on the second attempt. In a controller the simplest form is to return the error (or
requeue): the key is retried with backoff and the next reconcile starts from fresh state anyway.

What not to do: drop the resourceVersion to force the write (for custom resources the server refuses an update
without one; with a patch you silently overwrite someone else's change), or log it as an error and alert on it.`,
    keyPoints: [
      {
        point: "it is a 409 Conflict from a stale resourceVersion",
        terms: ["409", "conflict", "stale", "resourceversion"],
      },
      { point: "re-read, re-apply, retry", terms: ["re-read", "reread", "retry", "fresh"] },
      { point: "or requeue the key", terms: ["requeue", "return the error", "backoff"] },
      {
        point: "never force by dropping resourceVersion",
        terms: ["force", "drop", "overwrite", "lost update"],
      },
    ],
  },
  {
    id: "06-read-your-write",
    notebook,
    section: s4,
    topic: "cache",
    difficulty: "advanced",
    question:
      "Right after your controller writes an object, its informer cache still shows the old version. What goes wrong, and how do you write code that is correct anyway?",
    answer: `The cache learns about your write only when the watch event arrives (section 4 measured the lag it set up, about
400 ms; in a busy cluster it varies). A reconcile that runs in between sees the world before its own write. Code
that computes "old value + my change" from the cache then loses updates (the naive code wrote 1 twice for two
creates) or repeats actions (creating a child again).

Correct code: computes status as an **absolute** function of what it observes, never relative to the previous
status; writes with the resourceVersion it read, so a stale base is a 409 it retries instead of a silent overwrite;
makes creates idempotent (deterministic names, AlreadyExists = done) or tracks expectations of its in-flight
writes (the ReplicaSet controller does); and tolerates running again once the cache catches up, when it finds
nothing to do.`,
    keyPoints: [
      { point: "the cache lags behind your own writes", terms: ["lag", "behind", "stale", "not yet"] },
      { point: "relative updates lose writes", terms: ["relative", "lost update", "increment", "+ 1"] },
      { point: "absolute values from observation", terms: ["absolute", "observ", "count", "recompute"] },
      { point: "resourceVersion turns it into a 409", terms: ["resourceversion", "409", "conflict"] },
      { point: "idempotent creates / expectations", terms: ["idempotent", "deterministic", "expectation"] },
    ],
  },
  {
    id: "06-patch-vs-update",
    notebook,
    section: s4,
    topic: "api-basics",
    difficulty: "advanced",
    question: "When is a merge patch without a resourceVersion dangerous, and when is it the right tool?",
    answer: `A patch without a resourceVersion is applied to whatever is stored, unconditionally. That is safe when the value
you send does not depend on what you read: setting a label to a constant, adding your own finalizer, writing a
status you computed from observation alone. It is dangerous when the value was derived from a read that may be
stale ("cached + 1"): the server happily applies it over a newer value, and nobody gets an error. Section 4's naive
code did exactly that and stored 1 after two creates.

Options: include \`metadata.resourceVersion\` in the patch (it then acts as a precondition, 409 if stale), use an
update, or use server-side apply, which tracks field ownership. Trade-off: preconditions cost retries under
contention; unconditional patches are cheap but only correct for read-independent values.`,
    keyPoints: [
      {
        point: "unconditional: no conflict detection",
        terms: ["unconditional", "no conflict", "overwrite", "no resourceversion"],
      },
      {
        point: "fine for values that don't depend on a read",
        terms: ["constant", "independent", "does not depend", "label", "finalizer"],
      },
      {
        point: "dangerous for read-modify-write",
        terms: ["read-modify-write", "derived", "stale", "+ 1", "lost update"],
      },
      {
        point: "add resourceVersion precondition or use SSA",
        terms: ["precondition", "server-side apply", "ssa", "resourceversion"],
      },
    ],
  },
  {
    id: "06-field-ownership",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "Two controllers keep rewriting the same field of an object. How do you recognise it, and how do you fix it?",
    answer: `Symptoms: the object's resourceVersion climbs without end, both controllers' reconcile and write counts grow, the
field flips between two values (\`kubectl get -w\` shows it), and nobody reports an error: each controller is
right by its own logic. Section 5 counted the writes: dozens within 1.5 s, stopping at once when fixed.

The fix is a design rule: **one owner per field**. Give each controller its own field (the second controller got
\`tier-silver\`), or make one of them the only writer and let the other read. Server-side apply makes ownership
explicit: each field records its manager in \`managedFields\`, and a second manager changing an owned field gets a
conflict instead of silently winning. For status the rule is simple: a kind's status belongs to its controller.`,
    keyPoints: [
      {
        point: "endless writes, flipping value, climbing resourceVersion",
        terms: ["flip", "endless", "climb", "ping-pong", "fight"],
      },
      { point: "one owner per field", terms: ["one owner", "single owner", "owner per field"] },
      {
        point: "server-side apply / managedFields",
        terms: ["server-side apply", "managedfields", "ssa", "field manager"],
      },
    ],
  },
  {
    id: "06-lying-status",
    notebook,
    section: s6,
    topic: "operators",
    difficulty: "basic",
    question:
      "A controller sets Ready=True right after it asks a cloud API to create a resource. What is wrong with that?",
    answer: `It reports its intention, not an observation. If the call failed, or succeeded but the resource is not usable
yet, the status lies, and everyone who trusts it (\`kubectl wait\`, dependent controllers, humans) acts on
something that does not exist. Worse, a controller that believes it succeeded often stops retrying: the liar in
section 6 says \`Ready=True\` and the cloud has no bucket, for good.

A truthful controller sets \`Ready=True\` only after it has seen the resource (the create answered with an id, or
a read confirms it), records what it saw (\`status.bucketId\`), and on failure reports \`Ready=False\` with a reason
and the error as message, often \`Degraded=True\`, and returns an error so the key is retried. Section 6's truthful
controller did that and turned Ready on its second attempt.`,
    keyPoints: [
      {
        point: "status must report observations, not intentions",
        terms: ["observ", "intention", "intent", "saw"],
      },
      {
        point: "failure reported as Ready=False with reason/message",
        terms: ["false", "reason", "message", "degraded"],
      },
      { point: "return error / retry", terms: ["retry", "requeue", "return an error"] },
      { point: "readers act on the status", terms: ["kubectl wait", "trust", "depend", "reader"] },
    ],
  },
  {
    id: "06-status-retrigger",
    notebook,
    section: s7,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "Why is Reconcile called again after I update status, and how do I stop a hot loop?",
    answer: `A status write is a write: the object's resourceVersion changes and every watcher of the kind, including your
controller's own informer, receives a MODIFIED event, which enqueues the key again. That is by design (level
triggering does not know who wrote). It becomes a hot loop when each reconcile writes status again, for example
with a timestamp or a counter in it: section 7's hot controller reconciled and wrote in a tight loop.

Stop it by writing status only when it differs from what is stored (compute it, compare, use the changed flag of
\`setStatusCondition\`, no timestamps except \`lastTransitionTime\`), so the reconcile triggered by your own write
finds nothing to write: section 7's calm controller reconciled twice and wrote once. Optionally filter events with
a predicate such as \`GenerationChangedPredicate\` (changes of intent: the spec, and the start of a deletion), accepting
that you then ignore status and metadata edits made by others.`,
    keyPoints: [
      {
        point: "a status write is a watch event for your own informer",
        terms: ["watch event", "modified", "own informer", "event"],
      },
      {
        point: "timestamps or counters make every write different",
        terms: ["timestamp", "counter", "every time", "different"],
      },
      { point: "skip no-op status writes", terms: ["no-op", "only when", "changed", "compare", "differs"] },
      {
        point: "GenerationChangedPredicate as an option",
        terms: ["generationchangedpredicate", "predicate", "generation"],
      },
    ],
  },
  {
    id: "06-generation-predicate",
    notebook,
    section: s7,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "What does filtering events with a generation-changed predicate buy you, and what does it cost?",
    answer: `It drops update events in which \`metadata.generation\` did not change, i.e. status-only and metadata-only writes
(except the first \`deletionTimestamp\` on an object held by finalizers, which bumps the generation, so the start of
a deletion still gets through).
Your own status writes then no longer wake the controller: of the two reconciles section 7's calm controller ran, the
second (woken by its own status write) would not have happened.

The cost: the controller also stops seeing label, annotation and finalizer changes made by others (a finalizer
removed while the object is already deleting included), and a status
edited by someone else is not corrected until the next spec change or resync. It also does nothing for kinds without
a generation-tracking spec. So it is an optimisation on top of idempotent, no-op-skipping status writes, never a
replacement: a controller that needs the predicate to avoid a hot loop still has the bug, it is only hidden until
another event arrives.`,
    keyPoints: [
      {
        point: "drops status/metadata-only updates",
        terms: ["status-only", "metadata", "generation", "spec change"],
      },
      { point: "fewer self-triggered reconciles", terms: ["fewer", "self", "own write", "wake"] },
      {
        point: "misses label/annotation/finalizer changes by others",
        terms: ["label", "annotation", "finalizer", "miss"],
      },
      {
        point: "not a substitute for skipping no-op writes",
        terms: ["not a substitute", "still", "hide", "idempotent"],
      },
    ],
  },
  {
    id: "06-absolute-status",
    notebook,
    section: s2,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "Why should a reconcile compute the whole status from scratch each time instead of updating the previous status?",
    answer: `Because the previous status may be stale (read from a lagging cache), may have been written by an older version of
the controller, or may itself be wrong after a failed write. A status derived from "old status + what I just did"
carries every past mistake forward and breaks under retries and races (section 4's naive count). A status computed
from the spec and what is observed now (children counted, the cloud's answer) is correct whenever the
observation is, converges after any failure, and is idempotent: recomputing it on an unchanged world gives the
same value, so the write can be skipped.

Section 2's \`computeStatus\` takes only the spec, the observed count and the last error. The one thing carried over
is \`lastTransitionTime\`, which by definition depends on the previous status, and \`setStatusCondition\` handles it.`,
    keyPoints: [
      { point: "previous status may be stale or wrong", terms: ["stale", "wrong", "old", "lagging"] },
      { point: "derive from spec + observation", terms: ["observ", "spec", "from scratch", "recompute"] },
      { point: "idempotent: same input same status, skip write", terms: ["idempotent", "same", "skip"] },
      { point: "lastTransitionTime is the exception", terms: ["lasttransitiontime", "transition"] },
    ],
  },
]);
