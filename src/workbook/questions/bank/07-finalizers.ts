import { defineQuestions } from "../question.js";

const notebook = "07-finalizers";

/**
 * Questions for `notebooks/07-finalizers.ipynb`: deletion as a protocol for what lives outside the cluster.
 * Finalizers hold a deleted object until its controller has cleaned up; a missing controller holds it forever.
 */
export const finalizers07 = defineQuestions([
  {
    id: "07-deletion-timestamp",
    notebook,
    section: "2. Deletion is a request: deletionTimestamp and finalizers",
    topic: "deletion",
    difficulty: "basic",
    question: "You delete an object that has a finalizer. What does the API server do, and what do you see?",
    answer: `It does **not** remove the object. It sets \`metadata.deletionTimestamp\` (and \`deletionGracePeriodSeconds\`),
keeps the object in storage and sends a MODIFIED watch event. \`kubectl get\` shows it as \`Terminating\`. The object is
removed only when the last name in \`metadata.finalizers\` is gone; the write that empties the list is the one that
deletes it (a DELETED event follows).

Deleting again changes nothing: the first deletionTimestamp stays. New finalizers can no longer be added (422), but
existing ones can be removed and other fields can still change. The trade-off is deliberate: deletion becomes
asynchronous and can wait forever, in exchange for a guarantee that whoever put a finalizer there gets a chance to
clean up first. Section 2 deletes a Bucket with no controller running and reads it back, Terminating.`,
    keyPoints: [
      { point: "deletionTimestamp is set, the object stays", terms: ["deletiontimestamp", "stays", "kept"] },
      {
        point: "it is removed when the finalizers list becomes empty",
        terms: ["empty", "last finalizer", "finalizers list", "removed"],
      },
      { point: "kubectl shows Terminating", terms: ["terminating"] },
      {
        point: "no new finalizers may be added while deleting",
        terms: ["new finalizer", "422", "cannot add"],
      },
    ],
  },
  {
    id: "07-why-not-deleted-event",
    notebook,
    section: "1. The problem: cleanup without a finalizer",
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "Why can't a controller simply delete the external resource when its informer delivers the DELETED event?",
    answer: `Because nothing guarantees the controller sees that event, or gets to act on it. If the controller is down,
being upgraded or restarting when the object is deleted, it comes back, LISTs, and the object is simply not in the
list: no event, no key, nothing to reconcile. The informer's cache forgot the object, and so did the cluster. The
same happens if the cleanup call fails and the process dies before the retry.

A finalizer moves the memory into the API server: the object stays (Terminating) until the controller has done its
part, however long it was away. The price: deletion waits for the controller. Section 1 measures the leak: the naive
controller was stopped during the delete, and after its restart the cloud bucket is still there with no object left
that points at it.`,
    keyPoints: [
      {
        point: "a controller that is down misses the event; after a relist the object is just absent",
        terms: ["down", "restart", "relist", "miss", "not in the list"],
      },
      {
        point: "the object, the only record of what to clean, is gone",
        terms: ["gone", "forgot", "no record"],
      },
      {
        point: "the finalizer keeps the object until cleanup is done",
        terms: ["finalizer", "keeps", "waits"],
      },
      { point: "the external resource leaks", terms: ["leak", "orphan", "still there"] },
    ],
  },
  {
    id: "07-finalizer-first",
    notebook,
    section: "3. Build it small: a Bucket controller with a finalizer",
    topic: "deletion",
    difficulty: "intermediate",
    question: "Why does the controller add its finalizer before it creates the external resource, not after?",
    answer: `So that there is never a moment in which the external resource exists and the object could disappear without
the controller noticing. If the bucket were created first and the finalizer added in a second write, a deletion (or a
crash) between the two would remove the object at once and leak the bucket, exactly the leak of section 1.

Adding the finalizer first costs one extra write and one extra reconcile (the patch comes back as a watch event), and
the controller then treats "finalizer present" as the only state in which it may create anything. If the object is
deleted before the finalizer lands, there is nothing to clean up. Section 3's reconcile returns right after adding the
finalizer and creates the bucket on the next pass; the package's \`finalizer()\` helper guarantees the same order.`,
    keyPoints: [
      {
        point: "no window where the resource exists without a finalizer",
        terms: ["window", "between", "gap"],
      },
      { point: "a delete in that window would leak the resource", terms: ["leak", "lost", "orphan"] },
      {
        point: "costs one more write / reconcile",
        terms: ["extra write", "one more", "round trip", "extra"],
      },
    ],
  },
  {
    id: "07-idempotent-cleanup",
    notebook,
    section: "5. Break it: cleanup that fails, and a bucket that is already gone",
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "Your cleanup deleted the bucket, then the process crashed before it removed the finalizer. What happens next, and what must the cleanup code handle?",
    answer: `The finalizer is still there, so the object is still Terminating and the controller reconciles it again after
the restart. Cleanup runs a **second time** for a bucket that no longer exists. If that second run treats "not found"
as an error, it retries forever and the object is stuck; if it treats "already gone" as success, it removes the
finalizer and the object goes.

So cleanup must be idempotent: "make sure the bucket is gone", not "delete the bucket". Removing the finalizer is the
last step, after the external state is right, which gives at-least-once cleanup (never zero, sometimes twice). Section 5
produces the same situation with a lost response (the cloud deleted, the caller saw a 500) and with a bucket someone
removed by hand: both objects go, with one effective delete each.`,
    keyPoints: [
      {
        point: "cleanup runs again because the finalizer is still there",
        terms: ["again", "twice", "retry", "rerun"],
      },
      {
        point: "NotFound/already gone counts as success",
        terms: ["not found", "404", "already gone", "success"],
      },
      { point: "at-least-once: idempotent cleanup", terms: ["idempotent", "at least once", "at-least-once"] },
      { point: "finalizer removed last", terms: ["last", "after cleanup", "then remove"] },
    ],
  },
  {
    id: "07-cleanup-keeps-failing",
    notebook,
    section: "5. Break it: cleanup that fails, and a bucket that is already gone",
    topic: "reconcile",
    difficulty: "basic",
    question: "The external API is failing. What happens to a deleted object whose cleanup keeps failing?",
    answer: `It stays Terminating, with its finalizer, for as long as cleanup fails. The reconcile returns an error, the
controller requeues the key with rate-limited backoff (growing delays, so a broken cloud is not hammered), and the
next attempt runs cleanup again. Only a successful cleanup is followed by the finalizer removal, so the object never
disappears while its bucket still exists.

That is the trade-off of a finalizer: correctness (no leak) over availability of deletion. A good controller says why
it is waiting: an Event or a condition naming the failing call, because "Terminating" alone explains nothing.
Section 5 injects two failed deletes: the object is still there after them, and goes on the third attempt.`,
    keyPoints: [
      {
        point: "the object stays Terminating with its finalizer",
        terms: ["terminating", "stays", "remains"],
      },
      { point: "the key is requeued with backoff", terms: ["backoff", "requeue", "rate limit", "retry"] },
      {
        point: "the finalizer is removed only after success",
        terms: ["only after", "success", "never removed"],
      },
      { point: "report the reason (event or condition)", terms: ["event", "condition", "status"] },
    ],
  },
  {
    id: "07-lost-response",
    notebook,
    section: "5. Break it: cleanup that fails, and a bucket that is already gone",
    topic: "deletion",
    difficulty: "advanced",
    question:
      "The cloud's delete call returned a 500 (or timed out). Was the bucket deleted? How does your controller stay correct without knowing?",
    answer: `You cannot tell from the error: the request may have failed before the cloud acted, or the cloud may have
acted and the response got lost. Both happen in production (timeouts, connection resets). The controller must not
guess; it retries, and the retry must succeed in both cases: delete again, and treat 404 Not Found as "done".

The same reasoning applies to creates: a retried create after a lost response meets "already exists", which is why
creates are made idempotent by a deterministic name (or by looking the resource up by a tag holding the object's uid)
rather than by remembering an id that may never have arrived. Section 5 injects a failure *after* the effect: the
first delete removes the bucket and reports 500, the retry gets 404, the finalizer goes, one effective delete.`,
    keyPoints: [
      {
        point: "an error does not tell whether the action happened",
        terms: ["may have", "unknown", "cannot tell", "lost"],
      },
      { point: "retry, with 404 as success", terms: ["404", "not found", "retry"] },
      {
        point: "deterministic names / idempotent create",
        terms: ["deterministic", "idempotent", "already exists", "uid"],
      },
    ],
  },
  {
    id: "07-stuck-terminating",
    notebook,
    section: "6. Stuck in Terminating",
    topic: "debugging",
    difficulty: "advanced",
    question:
      "An object has been Terminating for an hour. Why is it almost always a finalizer, and how do you diagnose it step by step?",
    answer: `Terminating means exactly one thing: \`deletionTimestamp\` is set and \`metadata.finalizers\` is not empty. The API
server removes the object the moment the list empties, so an object that stays Terminating has a finalizer that nobody
removes. (For Pods, the kubelet's graceful shutdown also plays a part; for Namespaces, it is their content.)

Step by step: (1) read \`metadata.deletionTimestamp\` and \`metadata.finalizers\`; (2) each name says whose it is:
\`foregroundDeletion\` and \`orphan\` belong to the garbage collector (look at the dependents), a domain name such as
\`workbook.dev/bucket-cleanup\` belongs to a controller; (3) is that controller installed and running (its Deployment,
its logs, its leader Lease)? (4) if it runs, why does cleanup fail (its logs, Events, the object's conditions)? Fix the
cause and the controller removes its finalizer. Section 6 stops the controller, deletes a Bucket and walks these steps;
restarting the controller finishes the deletion.`,
    keyPoints: [
      {
        point: "Terminating = deletionTimestamp set and finalizers non-empty",
        terms: ["deletiontimestamp", "finalizers", "not empty", "non-empty"],
      },
      { point: "read the finalizer names to find the owner", terms: ["name", "whose", "prefix", "domain"] },
      {
        point: "check that controller is running / its logs",
        terms: ["running", "logs", "deployment", "controller"],
      },
      {
        point: "fix the cause, let the controller remove it",
        terms: ["fix", "restart", "let the controller"],
      },
    ],
  },
  {
    id: "07-remove-by-hand",
    notebook,
    section: "6. Stuck in Terminating",
    topic: "debugging",
    difficulty: "intermediate",
    question:
      'A colleague unsticks a Terminating object with `kubectl patch ... -p \'{"metadata":{"finalizers":null}}\'`. What did that skip, and when is it acceptable?',
    answer: `It skipped the cleanup the finalizer stood for. The object disappears at once, and with it the only record that
an external resource (a bucket, a DNS record, a load balancer) belongs to it; the controller, when it runs again, has
nothing left to reconcile, so the resource leaks for good (and keeps costing money or holding a name).

It is acceptable only when you have checked that the cleanup is done or not needed: you deleted the resource yourself,
or the controller and everything it managed are gone on purpose. Section 6 removes the finalizer of one stuck Bucket
by hand: the object goes, the cloud bucket stays, and even the restarted controller never deletes it.`,
    keyPoints: [
      { point: "cleanup is skipped", terms: ["skip", "never runs", "no cleanup"] },
      { point: "the external resource leaks permanently", terms: ["leak", "orphan", "stays", "costs"] },
      {
        point: "only after checking the cleanup is done or unneeded",
        terms: ["check", "yourself", "manually", "only when"],
      },
    ],
  },
  {
    id: "07-finalizer-vs-owner",
    notebook,
    section: "2. Deletion is a request: deletionTimestamp and finalizers",
    topic: "deletion",
    difficulty: "intermediate",
    question: "Finalizer or ownerReference: which do you use for what a controller creates, and why?",
    answer: `For objects **inside the cluster** (ConfigMaps, Pods, Services a controller creates for its custom resource),
an ownerReference: the built-in garbage collector deletes them when the owner goes, with no code in your controller,
and \`kubectl\` shows who owns what. For things **outside the cluster** (a cloud bucket, a DNS entry, a row in a
database) the garbage collector cannot help, because it only knows API objects: a finalizer holds the owner until your
controller has deleted them.

Finalizers cost availability: a missing controller blocks deletion. OwnerReferences cost nothing but only work for
API objects in the same namespace (or cluster-scoped owners). Many operators use both: ownerReferences for children, one
finalizer for external state. Section 2 shows the finalizer side; notebook 08 the ownerReference side.`,
    keyPoints: [
      {
        point: "ownerReferences for in-cluster children (GC deletes them)",
        terms: ["ownerreference", "garbage", "in-cluster", "children"],
      },
      { point: "finalizers for external resources", terms: ["external", "outside", "cloud"] },
      {
        point: "a finalizer blocks deletion if the controller is missing",
        terms: ["block", "stuck", "missing controller"],
      },
    ],
  },
  {
    id: "07-finalizer-names",
    notebook,
    section: "2. Deletion is a request: deletionTimestamp and finalizers",
    topic: "deletion",
    difficulty: "basic",
    question:
      "Why is a finalizer name domain-qualified, like `workbook.dev/bucket-cleanup`, and who may remove it?",
    answer: `A finalizer is a promise made by one controller: "I will clean up, then remove this name." The name has to say
whose promise it is, so several controllers can put finalizers on one object without colliding, and so a person
looking at a stuck object can tell which controller to look for. The API server warns about names that are not
qualified (except the built-in \`foregroundDeletion\` and \`orphan\`, which belong to the garbage collector).

Only the controller that added a name should remove it, and only after its cleanup; a controller removes its own name
and never touches others (which is why the removal patch is guarded by resourceVersion). Section 2 shows the name on a
Terminating Bucket; section 6 uses it to find the controller responsible.`,
    keyPoints: [
      { point: "says whose finalizer it is", terms: ["whose", "owner", "identify", "which controller"] },
      {
        point: "avoids collisions between controllers",
        terms: ["collision", "several", "multiple", "unique"],
      },
      {
        point: "only the controller that added it removes it",
        terms: ["only the controller", "own", "its own"],
      },
    ],
  },
  {
    id: "07-guarded-removal",
    notebook,
    section: "4. The real one: finalizer() from the package",
    topic: "deletion",
    difficulty: "advanced",
    question:
      "Why does the package's `finalizer()` helper send its finalizer patches with the object's resourceVersion?",
    answer: `The patch writes the whole \`metadata.finalizers\` list (a merge patch replaces lists). Computed from a stale
read, it would silently drop a finalizer that another controller added in the meantime, or resurrect one that was
removed, and the other controller's cleanup would be skipped. Carrying \`resourceVersion\` turns that into optimistic
concurrency: if the object changed since the read, the server answers 409 Conflict, and the controller simply
reconciles again from a fresh read.

The alternative is a JSON patch with a \`test\` operation or server-side apply with field ownership; all three pay a
retry on contention to avoid lost updates. Section 4 uses \`finalizer()\` from \`src/meta/finalizers.ts\`, and section 5
makes one of its patches fail: cleanup runs again and still deletes the bucket once.`,
    keyPoints: [
      { point: "a merge patch replaces the whole list", terms: ["whole list", "replace", "list"] },
      {
        point: "a stale write would drop another controller's finalizer",
        terms: ["stale", "drop", "other controller", "overwrite"],
      },
      {
        point: "409 Conflict, then retry from a fresh read",
        terms: ["409", "conflict", "optimistic", "retry"],
      },
    ],
  },
  {
    id: "07-namespace-stuck",
    notebook,
    section: "6. Stuck in Terminating",
    topic: "debugging",
    difficulty: "advanced",
    question:
      "A namespace has been Terminating for a day. What are the usual causes and how do you find the one?",
    answer: `The namespace controller deletes everything in the namespace and removes the namespace's own \`kubernetes\`
finalizer only when the namespace is empty. So a stuck namespace usually contains an object that cannot go: most often
a custom resource whose finalizer nobody removes because its operator was uninstalled first (the order matters:
delete the custom resources, then the operator). The other classic cause is an API group the controller cannot list
(an unavailable aggregated APIService), so it cannot prove the namespace is empty.

Diagnose: \`kubectl get namespace X -o yaml\` shows conditions such as \`NamespaceContentRemaining\` and
\`NamespaceFinalizersRemaining\` naming the resources and finalizers left; then treat each remaining object like the
stuck Bucket of section 6. Removing the namespace's finalizer by hand leaks whatever those objects stood for.`,
    keyPoints: [
      {
        point: "an object inside still has a finalizer nobody removes",
        terms: ["finalizer", "object inside", "custom resource"],
      },
      {
        point: "the operator was removed before its resources",
        terms: ["uninstall", "operator", "order", "removed first"],
      },
      {
        point: "an unavailable API service blocks discovery",
        terms: ["apiservice", "aggregated", "discovery", "unavailable"],
      },
      {
        point: "namespace conditions name what remains",
        terms: ["condition", "contentremaining", "finalizersremaining"],
      },
    ],
  },
]);
