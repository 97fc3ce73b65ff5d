import { defineQuestions } from "../question.js";

const notebook = "13-concurrency-and-field-ownership";
const s1 = "1. 409 Conflict, and re-read and retry";
const s2 = "2. Reading your own write from a lagging cache";
const s3 = "3. Two controllers, one field";
const s4 = "4. Server-side apply: send what you want, and own it";
const s5 = "5. A conflict between managers, and what `force` does";
const s6 = "6. The fight over `replicas`: a GitOps tool and an autoscaler";
const s7 = "7. Update, merge patch or apply: what each write costs";

/** Questions for `notebooks/13-concurrency-and-field-ownership.ipynb`: many writers, one object. */
export const concurrency13 = defineQuestions([
  {
    id: "13-optimistic-concurrency",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "Where does optimistic concurrency show up in a controller's life?",
    answer: `Everywhere a controller writes a whole object: every \`update\` and \`updateStatus\` carries the resourceVersion it
read, and the API server refuses it with 409 Conflict if the object changed since. That covers status writes
(section 1), updates of children from a stale cache (section 2), finalizer removal, and leader election (a Lease
is taken and renewed by an update with the resourceVersion, so two candidates cannot both win). Creates have their
own form: 409 AlreadyExists for a taken name, which deterministic names turn into idempotency.

It is optimistic because nothing is locked: writers race, one wins, the others notice and retry on fresh data. The
cost is retries under contention; the benefit is no lock to leak when a controller dies. Writes without a
resourceVersion skip the check: a merge patch overwrites whatever is stored (section 2's naive code got that
wrong), and server-side apply guards fields by ownership instead of a version (section 5).`,
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
    id: "13-on-conflict",
    notebook,
    section: s1,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "Your status update fails with 'the object has been modified; please apply your changes to the latest version'. What do you do?",
    answer: `Nothing dramatic: it is a 409 Conflict, optimistic concurrency working. Someone (a user, another controller, your
own previous write not yet in your cache) wrote the object after you read it. Re-read the object, apply your
change to the fresh copy, write again: \`retry.RetryOnConflict\` in client-go, the loop \`updateStatusWithRetry\` in
section 1, which lands on the second attempt. In a controller the simplest form is to return the error (or
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
    id: "13-read-your-write",
    notebook,
    section: s2,
    topic: "cache",
    difficulty: "advanced",
    question:
      "Right after your controller writes an object, its informer cache still shows the old version. What goes wrong, and how do you write code that is correct anyway?",
    answer: `The cache learns about your write only when the watch event arrives (section 2 measured the lag it set up, about
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
    id: "13-patch-vs-update",
    notebook,
    section: s2,
    topic: "api-basics",
    difficulty: "advanced",
    question: "When is a merge patch without a resourceVersion dangerous, and when is it the right tool?",
    answer: `A patch without a resourceVersion is applied to whatever is stored, unconditionally. That is safe when the value
you send does not depend on what you read: setting a label to a constant, adding your own finalizer, writing a
status you computed from observation alone. It is dangerous when the value was derived from a read that may be
stale ("cached + 1"): the server happily applies it over a newer value, and nobody gets an error. Section 2's naive
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
    id: "13-field-ownership",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "Two controllers keep rewriting the same field of an object. How do you recognise it, and how do you fix it?",
    answer: `Symptoms: the object's resourceVersion climbs without end, both controllers' reconcile and write counts grow, the
field flips between two values (\`kubectl get -w\` shows it), and nobody reports an error: each controller is
right by its own logic. Section 3 counted the writes: dozens within 1.5 s, stopping at once when fixed.

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
    id: "13-what-apply-does",
    notebook,
    section: s4,
    topic: "api-basics",
    difficulty: "basic",
    question: "What does server-side apply do that an update or a merge patch does not?",
    answer: `An apply (a PATCH of type \`application/apply-patch+yaml\` with a \`fieldManager\`) sends the fields its manager wants,
and only those. The API server merges them into the stored object (creating it if missing) and records, in
\`metadata.managedFields\`, which manager owns which field. Three things follow that no other write gives you:

- **ownership instead of a version**: no resourceVersion is needed; a value that differs from a field another
  manager owns is a 409 Conflict naming the field and its owner (section 5), not a silent overwrite;
- **removal by omission**: a field the manager alone owned and no longer sends is removed (section 4's \`size\`), so a
  manifest is the whole truth of what its manager sets;
- **no-op detection**: an apply that changes nothing is not stored, no event goes out (section 4's re-apply kept
  the resourceVersion).

An update replaces the whole object and is guarded by the resourceVersion; a merge patch merges without any check
and only removes what you explicitly set to null.`,
    keyPoints: [
      {
        point: "sends only the fields it wants, with a field manager",
        terms: ["fieldmanager", "field manager", "only the fields", "partial"],
      },
      { point: "managedFields records ownership", terms: ["managedfields", "owner", "ownership"] },
      { point: "conflict on another manager's field", terms: ["conflict", "409"] },
      { point: "removes fields it stops sending", terms: ["remove", "omit", "delete", "stop sending"] },
    ],
  },
  {
    id: "13-managed-fields",
    notebook,
    section: s4,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "What is in metadata.managedFields, and how do you use it when debugging?",
    answer: `One entry per manager, operation and subresource: the \`manager\` name (the \`fieldManager\` of the write, or for a
write without one a name kube-apiserver derives from the client's user agent), the \`operation\` (\`Apply\` for
server-side apply, \`Update\` for creates, updates and other patches), \`subresource\` (\`status\` for a \`/status\` write),
\`time\`, and \`fieldsV1\`: the set of fields it owns, as a trie (\`f:spec\` > \`f:replicas\`; \`k:{"name":"web"}\` for a list
item by key; \`v:"x"\` for a set member). Section 4's table decoded it: gitops owned the spec, \`kubectl-label\` the
label, the controller the status.

Debugging: when a field keeps changing, \`kubectl get -o yaml --show-managed-fields\` tells you who wrote it last and
how; a manager named after a user agent (\`kubectl-edit\`, \`node-fetch\`, \`Go-http-client\`) means someone wrote without
naming themselves. \`kubectl\` hides it by default because it is long: every manager adds an entry to every object.`,
    keyPoints: [
      { point: "manager, operation, subresource, time", terms: ["manager", "operation", "subresource"] },
      { point: "fieldsV1 is the set of owned fields", terms: ["fieldsv1", "set of fields", "f:"] },
      { point: "Apply vs Update operations", terms: ["apply", "update"] },
      { point: "shows who wrote a field", terms: ["who", "last", "show-managed-fields", "debug"] },
    ],
  },
  {
    id: "13-noop-apply",
    notebook,
    section: s4,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "A GitOps tool (or a controller) applies the same desired state again and again. What does each apply cost when nothing differs?",
    answer: `One request, and nothing else. kube-apiserver computes the merged object, finds it equal to what is stored, and does
not write: the resourceVersion stays, etcd sees nothing, no watch event goes out, so no controller wakes up
(section 4 checked the resourceVersion before and after the re-apply). That is what makes "apply the whole desired
state on every reconcile" a sound pattern: the level-triggered reconcile may run as often as it likes.

Compare an update: the controller must first read, then compare itself, because a PUT of an unchanged object is
also a no-op but a PUT of anything it filled in differently (a defaulted field, a timestamp) is a real write.
With apply the comparison is the server's, on exactly the fields the manager owns.`,
    keyPoints: [
      {
        point: "no write, resourceVersion unchanged",
        terms: ["no write", "resourceversion", "unchanged", "not stored"],
      },
      { point: "no watch event, no reconcile", terms: ["no event", "watch", "wake"] },
      { point: "safe to apply on every reconcile", terms: ["every reconcile", "level", "idempotent"] },
    ],
  },
  {
    id: "13-apply-removes",
    notebook,
    section: s4,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "You delete a key from a manifest and write it again. What happens to the key in the cluster with apply, with a merge patch, and with an update?",
    answer: `**Apply**: the key is removed, if this manager owned it alone; a manager's applied configuration is the whole of what it
sets. If another manager also owns the key, only this manager's claim goes and the value stays. **Merge patch**:
nothing happens; a merge patch only adds and overwrites, and removing needs an explicit \`null\`, which means reading
the object first. **Update**: the key is removed, because the whole object (or map) is replaced; but so is anything
another writer added since your read, unless the resourceVersion refuses the write.

Section 4 dropped \`size\` both ways: the merge patch left it, the apply removed it. Section 7 measured the same on a
child ConfigMap: \`old\` survived only the merge patch.`,
    keyPoints: [
      { point: "apply removes what its manager alone owned", terms: ["removed", "owned", "alone", "sole"] },
      { point: "merge patch keeps it unless null", terms: ["null", "merge patch", "keeps", "stays"] },
      { point: "update replaces the whole object", terms: ["replace", "whole", "update"] },
    ],
  },
  {
    id: "13-apply-conflict",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "Your apply fails with 'Apply failed with 1 conflict: conflict with \"gitops\": .spec.replicas'. What does it mean, and what are your options?",
    answer: `It is a 409 Conflict of server-side apply, not of optimistic concurrency: the field \`.spec.replicas\` is owned by the
manager \`gitops\`, and you applied a different value. The \`details.causes\` list every such field with its owner
(section 5's table showed one). Nothing was written.

Options: (1) **leave the field out** of your configuration: it is not yours, and the owner's value stays;
(2) **apply the same value** as the owner: no conflict, you share ownership; (3) **force** (\`force=true\`,
\`--force-conflicts\`, \`client.ForceOwnership\`): you take the field, and the other manager's next apply meets the
conflict instead (section 5: gitops's sync was refused after the hot-fix forced). Forcing when you are not the
owner by design starts a fight with names on it. An update or merge patch by contrast never conflicts: it takes
the field silently.`,
    keyPoints: [
      {
        point: "another manager owns the field with another value",
        terms: ["another manager", "owned", "owner"],
      },
      { point: "drop the field from your config", terms: ["drop", "leave out", "remove", "omit"] },
      { point: "force takes ownership", terms: ["force"] },
      { point: "same value shares ownership", terms: ["same value", "share", "shared"] },
    ],
  },
  {
    id: "13-when-to-force",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "advanced",
    question: "Should a controller apply with force? Should a person?",
    answer: `A controller, for the objects it creates and the fields it manages: yes. It is their owner by design, its desired
state is computed on every reconcile, and a conflict would only stop it from correcting drift; controller-runtime's
examples pass \`client.ForceOwnership\` for that reason (section 7's \`viaApply\`). It must then send only the fields it
really owns, or it will take fields from others (an autoscaler's replicas, a label a user added) and start a fight.

A person: rarely, and knowingly. A hot-fix with force moves the field to the person's manager (section 5), and the
tool that owned it either conflicts on its next sync or, if it forces too, reverts the fix. The lasting fix is the
change in the owner's source (git, the controller's spec), or a deliberate hand-over of ownership.`,
    keyPoints: [
      {
        point: "controllers force for fields they own by design",
        terms: ["owner by design", "controller", "force"],
      },
      { point: "send only the fields you own", terms: ["only the fields", "only fields", "own"] },
      { point: "people: fix the source of truth instead", terms: ["git", "source", "hand-over", "handover"] },
    ],
  },
  {
    id: "13-hpa-gitops",
    notebook,
    section: s6,
    topic: "operators",
    difficulty: "advanced",
    question:
      "Your GitOps tool keeps resetting a Deployment's replicas to 2 while the HPA scales it to 5. How do you end it, and what can go wrong in the fix?",
    answer: `Two owners of one field: each sync forces 2, the HPA writes 5, every round two writes (section 6's chart). The fix
the Kubernetes documentation gives is to take \`replicas\` out of the manifest, so that only the autoscaler sets it.

The trap is the order. When an apply stops sending a field that its manager **alone** owns, the field is removed:
for a Deployment \`replicas\` then defaults to **1**, and you scale production down to one pod (section 6's
hand-over table; for ConfigSet, where replicas is required, the apply is refused with 422 instead). It is safe
when the autoscaler owns the field at that moment (its last write took it, as in section 6) or both share it; a
safe hand-over makes sure of that first (let the autoscaler write, or apply the current value under the new owner's
name) and only then drops the field. Argo CD and Flux also let you ignore the field instead.`,
    keyPoints: [
      { point: "two owners of replicas fight", terms: ["fight", "two owners", "both", "every sync"] },
      {
        point: "remove replicas from the manifest",
        terms: ["remove", "leave out", "omit", "out of the manifest"],
      },
      { point: "sole owner dropping it resets to default 1", terms: ["default", "1", "one pod", "reset"] },
      { point: "hand over ownership first", terms: ["hand over", "handover", "ownership", "first"] },
    ],
  },
  {
    id: "13-controller-write-style",
    notebook,
    section: s7,
    topic: "reconcile",
    difficulty: "advanced",
    question:
      "Update, merge patch or server-side apply for the child objects a controller manages: which, and why?",
    answer: `Section 7 measured ten raced reconciles of each. **Update** (get-modify-update) stayed correct thanks to the
resourceVersion but paid a 409, a re-read and a second write per race, and sent the whole object back,
managedFields included. **Merge patch** wrote once and never conflicted, but cannot remove a key without reading
first, and overwrites other writers' values of the fields it sends without a word. **Apply** wrote once, met no
conflict (the peer's annotation was the peer's field), sent only the desired child, and removed the key it stopped
wanting.

For children a controller creates, apply is the usual recommendation: desired state in, no read-modify-write, no
retry loop, drift corrected, no-ops free. Its costs: bigger objects (managedFields), more server work per write,
and the rule that an apply must name every field the controller wants to keep. Update stays right for
read-dependent changes you must base on the current value (a counter, a list you append to with a precondition);
a merge patch is fine for read-independent values such as adding your own finalizer or a constant label.`,
    keyPoints: [
      { point: "update: 409 and re-read under contention", terms: ["409", "re-read", "conflict", "retry"] },
      {
        point: "merge patch: cheap, cannot remove, overwrites",
        terms: ["cannot remove", "null", "overwrite"],
      },
      {
        point: "apply: desired state, no read, removes stale fields",
        terms: ["desired", "no read", "removes", "apply"],
      },
      {
        point: "costs of apply: managedFields size, server work",
        terms: ["managedfields", "size", "bigger", "server work"],
      },
    ],
  },
]);
