import { defineQuestions } from "../question.js";

const notebook = "06-status-that-tells-the-truth";
const s1 = "1. generation and observedGeneration";
const s2 = "2. Conditions and Events from a reconcile";
const s3 = "3. A status that lies";
const s4 = "4. A status write wakes its own controller";

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
    id: "06-lying-status",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "basic",
    question:
      "A controller sets Ready=True right after it asks a cloud API to create a resource. What is wrong with that?",
    answer: `It reports its intention, not an observation. If the call failed, or succeeded but the resource is not usable
yet, the status lies, and everyone who trusts it (\`kubectl wait\`, dependent controllers, humans) acts on
something that does not exist. Worse, a controller that believes it succeeded often stops retrying: the liar in
section 3 says \`Ready=True\` and the cloud has no bucket, for good.

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
    section: s4,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "Why is Reconcile called again after I update status, and how do I stop a hot loop?",
    answer: `A status write is a write: the object's resourceVersion changes and every watcher of the kind, including your
controller's own informer, receives a MODIFIED event, which enqueues the key again. That is by design (level
triggering does not know who wrote). It becomes a hot loop when each reconcile writes status again, for example
with a timestamp or a counter in it: section 4's hot controller reconciled and wrote in a tight loop.

Stop it by writing status only when it differs from what is stored (compute it, compare, use the changed flag of
\`setStatusCondition\`, no timestamps except \`lastTransitionTime\`), so the reconcile triggered by your own write
finds nothing to write: section 4's calm controller reconciled twice and wrote once. Optionally filter events with
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
    section: s4,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "What does filtering events with a generation-changed predicate buy you, and what does it cost?",
    answer: `It drops update events in which \`metadata.generation\` did not change, i.e. status-only and metadata-only writes
(except the first \`deletionTimestamp\` on an object held by finalizers, which bumps the generation, so the start of
a deletion still gets through).
Your own status writes then no longer wake the controller: of the two reconciles section 4's calm controller ran, the
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
carries every past mistake forward and breaks under retries and races (notebook 13's naive count, section 2). A status computed
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
  {
    id: "06-status-subresource",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "What changes for writers and readers when a CRD enables the /status subresource?",
    answer: `The object gets two doors. The main resource ignores changes to \`.status\` (a PUT or patch that sends a status keeps
the stored one), and \`/status\` ignores everything but \`.status\` (a spec sent there is dropped). A \`/status\` write
never moves \`metadata.generation\`, which is what makes \`observedGeneration\` meaningful: the generation counts
changes of intent, not reports (section 1's table: the status write left generation at 2). Without the
subresource the status is just another field, and writing it bumps the generation like any other change.

The split also reaches RBAC: \`<kind>/status\` is its own resource, so the controller can be allowed to write
status while users may only write spec, and each door has its own field manager entries in \`managedFields\`
(notebook 13 shows \`Update /status\` as a separate owner).`,
    keyPoints: [
      {
        point: "main endpoint ignores status, /status ignores the rest",
        terms: ["ignore", "dropped", "two", "door"],
      },
      { point: "status writes do not bump generation", terms: ["generation"] },
      { point: "separate RBAC for <kind>/status", terms: ["rbac", "/status", "permission"] },
    ],
  },
  {
    id: "06-conditions-not-phase",
    notebook,
    section: s2,
    topic: "operators",
    difficulty: "intermediate",
    question: "Why do Kubernetes APIs report conditions instead of a single phase field?",
    answer: `A phase is one enum for a state machine everyone must agree on; adding a state breaks every client that switches on
it, and one value cannot say two things at once ("progressing and degraded"). Conditions are a list of
independent observations, each a type with \`status\` True/False/Unknown, a CamelCase \`reason\` for programs, a
\`message\` for people, \`lastTransitionTime\` and \`observedGeneration\`. New types can be added without breaking
readers, tools can wait on one (\`kubectl wait --for=condition=Ready\`), and the observedGeneration on each says which
spec it describes. The API conventions call phase deprecated for new APIs for these reasons.

Section 2's reconcile writes three (\`Ready\`, \`Progressing\`, \`Degraded\`) with \`setStatusCondition\`, which moves
\`lastTransitionTime\` only when a condition's status flips, so an unchanged condition is not a write.`,
    keyPoints: [
      {
        point: "phase is a closed enum, hard to extend",
        terms: ["enum", "state machine", "extend", "break"],
      },
      {
        point: "conditions are independent observations",
        terms: ["independent", "several", "list", "at once"],
      },
      {
        point: "reason, message, lastTransitionTime, observedGeneration",
        terms: ["reason", "message", "lasttransitiontime", "observedgeneration"],
      },
      { point: "tools wait on a condition", terms: ["kubectl wait", "wait"] },
    ],
  },
  {
    id: "06-event-flood",
    notebook,
    section: s2,
    topic: "operators",
    difficulty: "advanced",
    question:
      "A reconcile fails on every retry and records a Warning Event each time. Why does that not flood the API server, and what do you lose?",
    answer: `Three guards, all in client-go's recorder (\`tools/record\`), plus one on the server. **Aggregation of identical events**:
the same object, type, reason and message become one Event whose \`count\` grows (section 2: three records, one
object, count 3, \`(x3 over ...)\` in \`kubectl describe\`). **Similar events**: from the 10th event within 10 minutes
that differs only by message, they are combined into one "(combined from similar events)" Event. **A spam
filter**: a token bucket per source and object (burst 25, refilled one per 5 minutes) drops what is left. On the
server, Events expire (kube-apiserver's \`--event-ttl\`, one hour by default).

What you lose: Events are best-effort. Some are dropped or merged, the messages of merged ones are gone, and they
vanish after the TTL. That is why the truth goes into the status (conditions a program can read) and the metrics;
Events are for the person running \`kubectl describe\` now.`,
    keyPoints: [
      { point: "identical events aggregate into a count", terms: ["count", "aggregat", "identical"] },
      { point: "similar events combined from the 10th", terms: ["similar", "combined", "10"] },
      {
        point: "spam filter / rate limit per object",
        terms: ["spam", "rate limit", "token bucket", "burst"],
      },
      {
        point: "events are best-effort and expire",
        terms: ["best-effort", "best effort", "ttl", "expire", "lost"],
      },
    ],
  },
  {
    id: "06-wait-for-ready",
    notebook,
    section: s1,
    topic: "operators",
    difficulty: "basic",
    question:
      "A deploy script applies a new spec and then waits for Ready=True. Why can that wait succeed before the controller has even looked at the change, and how do you avoid it?",
    answer: `Because the Ready condition still describes the previous spec: the controller has not reconciled the new generation
yet, and \`Ready=True\` is left over from the last one. Section 1's last row is that moment: generation 3,
observedGeneration 2.

Compare \`status.observedGeneration\` (or the condition's own \`observedGeneration\`) with \`metadata.generation\`
before believing any condition: equal means "this status describes the spec you just wrote". \`kubectl rollout
status\` does that for Deployments, and \`kubectl wait --for=condition=...\` skips a condition whose
observedGeneration is older than the object's generation. A controller makes this possible by writing
observedGeneration in the same status write as the conditions it computed from that spec.`,
    keyPoints: [
      { point: "the condition is from the old spec", terms: ["old", "previous", "stale", "left over"] },
      { point: "compare observedGeneration with generation", terms: ["observedgeneration", "generation"] },
      { point: "rollout status / kubectl wait do this", terms: ["rollout status", "kubectl wait"] },
    ],
  },
]);
