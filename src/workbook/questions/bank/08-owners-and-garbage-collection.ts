import { defineQuestions } from "../question.js";

const notebook = "08-owners-and-garbage-collection";

/**
 * Questions for `notebooks/08-owners-and-garbage-collection.ipynb`: ownerReferences, the three propagation
 * policies, namespace deletion, the garbage collector's graph and queues, and testing without a collector.
 */
export const ownersAndGc08 = defineQuestions([
  {
    id: "08-owner-reference-fields",
    notebook,
    section: "1. The problem: a cluster with no garbage collector",
    topic: "deletion",
    difficulty: "basic",
    question: "What is in an ownerReference, and why does it carry the owner's uid and not just its name?",
    answer: `apiVersion, kind, name and **uid** of the owner, plus two flags: \`controller\` (this owner is the one that
manages the object; at most one reference may say true) and \`blockOwnerDeletion\` (a foreground deletion of the owner
waits for this object). There is no namespace: a namespaced owner is always in the dependent's namespace.

The uid makes the reference point at one incarnation of the owner. Delete \`web\` and create a new \`web\`: the old
children must not silently belong to the new one. Their reference names a uid that no longer exists, so the collector
treats the owner as absent and deletes them. Section 1 draws the children pointing at an absent \`web\` after its
deletion; section 2's collector deletes them for exactly that reason.`,
    keyPoints: [
      { point: "apiVersion, kind, name, uid", terms: ["apiversion", "kind", "uid"] },
      { point: "controller and blockOwnerDeletion flags", terms: ["controller", "blockownerdeletion"] },
      {
        point: "uid identifies one incarnation: a recreated owner with the same name is another owner",
        terms: ["recreate", "same name", "incarnation", "new object"],
      },
      { point: "no namespace field", terms: ["no namespace", "same namespace"] },
    ],
  },
  {
    id: "08-background",
    notebook,
    section: "3. Background deletion (the default)",
    topic: "deletion",
    difficulty: "basic",
    question:
      "You `kubectl delete` a Deployment with the default policy. What is deleted, by whom, and in what order?",
    answer: `The default propagation policy is **background**. The API server deletes the Deployment at once (it has no
finalizer to wait for), and the call returns. Then the garbage collector, watching everything, notices ReplicaSets
whose owner is gone and deletes them; their Pods in turn lose their owner and are deleted too, level by level.

So for a while the children exist without their owner; clients that read them see a dangling reference. The trade-off:
the delete is fast and never blocks, but "the owner is gone" does not mean "everything is gone". Section 3 reads the
namespace right after the DELETE: the owner is gone, the children are still there, and the cell measures how long
they took to follow.`,
    keyPoints: [
      { point: "background is the default", terms: ["background", "default"] },
      { point: "the owner is deleted immediately", terms: ["immediately", "at once", "first"] },
      {
        point: "the garbage collector deletes the children afterwards",
        terms: ["garbage collector", "afterwards", "then"],
      },
      {
        point: "children briefly exist without an owner",
        terms: ["dangling", "without owner", "for a while"],
      },
    ],
  },
  {
    id: "08-foreground-block",
    notebook,
    section: "4. Foreground deletion and `blockOwnerDeletion`",
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "Explain foreground deletion. What does `blockOwnerDeletion` change, and what do clients see meanwhile?",
    answer: `With \`propagationPolicy: Foreground\` the API server keeps the owner, sets its deletionTimestamp and adds the
finalizer \`foregroundDeletion\`. The garbage collector deletes the children, and removes that finalizer once no
dependent with \`blockOwnerDeletion: true\` is left; then the owner goes. Meanwhile the owner is readable, Terminating,
and \`kubectl delete --cascade=foreground\` waits.

\`blockOwnerDeletion\` decides which children the owner waits for. Controllers set it on what they create
(\`setControllerReference\` does); a reference without it is still deleted but not waited for. Where the
\`OwnerReferencesPermissionEnforcement\` admission plugin is on, setting it requires **update on the owner's
\`finalizers\` subresource** (holding the owner back is like adding a finalizer to it), hence the error "cannot set
blockOwnerDeletion ... can't set finalizers on" and the \`<kind>/finalizers\` rule in operator scaffolds. Section 4's
\`db\` waited for the held \`db-0\` (blocks) and went while \`db-2\` (does not block) was still Terminating.`,
    keyPoints: [
      {
        point: "the owner stays with deletionTimestamp and the foregroundDeletion finalizer",
        terms: ["foregrounddeletion", "finalizer", "stays"],
      },
      {
        point: "children are deleted first",
        terms: ["children first", "dependents first", "before the owner"],
      },
      { point: "only blocking dependents are waited for", terms: ["blockownerdeletion", "blocking"] },
      {
        point: "setting it needs update on the owner's finalizers subresource",
        terms: ["finalizers subresource", "/finalizers", "permission"],
      },
      {
        point: "clients see the owner Terminating / kubectl waits",
        terms: ["terminating", "waits", "readable"],
      },
    ],
  },
  {
    id: "08-orphan-use-cases",
    notebook,
    section: "5. Orphan: keep the children, hand them to a new owner",
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "When would you delete an owner with `--cascade=orphan`, and what exactly happens to the children?",
    answer: `When you want to replace or remove the owner **without touching what it manages**: recreate a Deployment or
StatefulSet whose immutable fields (the selector, volumeClaimTemplates) must change without restarting its Pods; move
objects from one operator to another; take children out of a controller's hands while debugging; migrate an object to
a new kind or name.

The API server adds the finalizer \`orphan\` to the owner; the garbage collector removes the owner's reference from each
child, then removes the finalizer, and the owner goes. The children are untouched otherwise: same uid, same content,
no owner. A new owner adopts them by adding its controller reference (a ReplicaSet does it by itself for Pods matching
its selector). Section 5 orphans \`cache\`'s children, checks their uids, and hands them to \`cache-v2\`.`,
    keyPoints: [
      {
        point: "replace the owner without disrupting children",
        terms: ["replace", "recreate", "without", "keep running"],
      },
      {
        point: "immutable fields / migration as use case",
        terms: ["immutable", "selector", "migrat", "statefulset"],
      },
      {
        point: "orphan finalizer, references removed",
        terms: ["orphan finalizer", "reference removed", "strip", "removes the owner"],
      },
      { point: "a new owner adopts them", terms: ["adopt", "new owner"] },
    ],
  },
  {
    id: "08-cross-namespace",
    notebook,
    section: "8. Break it",
    topic: "deletion",
    difficulty: "advanced",
    question:
      "Can a ConfigMap in namespace `b` be owned by a ConfigSet in namespace `a`? What happens if you write such a reference anyway?",
    answer: `No. An ownerReference has no namespace field: a namespaced owner is always looked up in the **dependent's**
namespace. Cluster-scoped owners (a Namespace, a ClusterRole, a CRD-defined cluster-scoped kind) may own namespaced
objects, but a cluster-scoped object cannot have a namespaced owner.

If you write the reference anyway, the garbage collector looks for the ConfigSet in \`b\`, finds nothing with that uid,
and treats the owner as absent: it **deletes** the ConfigMap and records a Warning event \`OwnerRefInvalidNamespace\`.
The owner in \`a\` is untouched. For relations across namespaces, use labels or annotations plus a finalizer on the
parent. Section 8 writes such a reference by hand: the dependent is deleted within a second and the event appears.`,
    keyPoints: [
      {
        point: "not allowed: the owner is looked up in the dependent's namespace",
        terms: ["not allowed", "same namespace", "dependent's namespace", "no namespace field"],
      },
      {
        point: "the dependent is deleted as if the owner were absent",
        terms: ["deleted", "absent", "dangling"],
      },
      {
        point: "OwnerRefInvalidNamespace warning event",
        terms: ["ownerrefinvalidnamespace", "event", "warning"],
      },
      {
        point: "cluster-scoped owners may own namespaced objects, not the reverse",
        terms: ["cluster-scoped"],
      },
    ],
  },
  {
    id: "08-gc-graph",
    notebook,
    section: "7. Inside the collector",
    topic: "deletion",
    difficulty: "advanced",
    question:
      "What is the garbage collector's graph, how is it built, and what does the collector do with it?",
    answer: `It is an in-memory graph with one node per object uid, each linked to its owners and its dependents, built
from the ownerReferences the collector sees. The graph builder runs one metadata-only informer per resource that
supports list, watch and delete (found by discovery, refreshed when CRDs change) and applies every event to the
graph in one thread. An owner referenced but never observed becomes a *virtual* node until the API confirms it.

Nodes that may need action go to the \`attemptToDelete\` queue (children of a deleted owner, owners waiting in
foreground) or \`attemptToOrphan\` (owners deleted with the \`orphan\` finalizer). Workers then GET the live object and
its owners before acting, and every write is conditional, because the graph may lag. Section 7 draws the graph of
our namespace from the running collector and shows its monitors and queue counters.`,
    keyPoints: [
      {
        point: "one node per uid linked to owners and dependents",
        terms: ["node", "uid", "owners and dependents", "dependents"],
      },
      {
        point: "built from informers on every deletable resource",
        terms: ["informer", "monitor", "every resource", "discovery"],
      },
      { point: "virtual nodes for unseen owners", terms: ["virtual"] },
      {
        point: "attemptToDelete / attemptToOrphan queues; verify with the API before acting",
        terms: ["attempttodelete", "attempttoorphan", "queue", "verify"],
      },
    ],
  },
  {
    id: "08-envtest-no-gc",
    notebook,
    section: "1. The problem: a cluster with no garbage collector",
    topic: "testing",
    difficulty: "intermediate",
    question:
      "Your controller's envtest test deletes the parent and waits for the children to disappear. It times out. Why, and what should the test assert instead?",
    answer: `envtest runs only etcd and kube-apiserver: no kube-controller-manager, so no garbage collector and no namespace
controller. Deleting the parent deletes the parent; the children stay forever with a dangling reference. The test is
waiting for Kubernetes to do something that is not running.

Assert what your controller is responsible for: every child carries a controller ownerReference to the parent (uid,
\`controller: true\`, \`blockOwnerDeletion: true\`). That is enough, because the collector's behaviour is Kubernetes'
responsibility and tested there. If you must see the cascade, run against a real cluster (kind) or start a collector
in the test. Section 1 shows the children left behind with no collector, and the ownership check that holds either
way.`,
    keyPoints: [
      {
        point: "envtest has no garbage collector (no controller-manager)",
        terms: ["no garbage", "controller-manager", "no gc", "only the api server"],
      },
      {
        point: "assert the ownerReference instead",
        terms: ["ownerreference", "ownership", "controlled by", "owner reference"],
      },
      {
        point: "the cascade is Kubernetes' job / use kind for it",
        terms: ["kind", "real cluster", "kubernetes' job", "tested by kubernetes"],
      },
    ],
  },
  {
    id: "08-level-triggered-gc",
    notebook,
    section: "2. The garbage collector: start one",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "The garbage collector was down while an owner was deleted. Are its children leaked, unlike the cloud bucket of notebook 07?",
    answer: `No. The children are API objects that still exist and still name their owner's uid, so the record of what to
clean up survives in the cluster. When the collector starts, it lists everything, builds its graph, asks the API
whether each referenced owner exists, and deletes the children whose owner does not. It is level-triggered: it acts on
current state, not on the deletion event it missed.

The cloud bucket of notebook 07 was different: nothing in the cluster pointed at it once the Bucket was gone, which is
why it needed a finalizer. Section 2 starts a collector after \`web\` was deleted: the three children are gone within a
second though the collector never saw the deletion.`,
    keyPoints: [
      {
        point: "children still reference the owner's uid: the record survives",
        terms: ["still reference", "uid", "record", "survive"],
      },
      {
        point: "the collector lists and rebuilds state on start",
        terms: ["list", "rebuild", "graph", "start"],
      },
      { point: "level-triggered: acts on state, not on missed events", terms: ["level", "state", "missed"] },
    ],
  },
  {
    id: "08-namespace-deletion",
    notebook,
    section: "6. Namespace deletion",
    topic: "deletion",
    difficulty: "intermediate",
    question: "What happens, step by step, when you delete a namespace?",
    answer: `The API server sets the namespace's deletionTimestamp and phase \`Terminating\`; from then on no new objects may
be created in it. The namespace stays because of its \`spec.finalizers\` entry \`kubernetes\`. The namespace controller
(in kube-controller-manager) discovers every namespaced resource, deletes all objects in the namespace (each deletion
honouring its own finalizers), waits until nothing is left, and then removes the \`kubernetes\` finalizer through the
\`/finalize\` subresource. Only then is the namespace deleted.

So a namespace deletion is as slow as its slowest finalizer, and it never finishes where no namespace controller runs
(envtest). Section 6 reads the phase right after the DELETE (Terminating) and, where a namespace controller runs,
waits until the namespace and its ConfigSet are gone.`,
    keyPoints: [
      { point: "Terminating, no new objects", terms: ["terminating", "no new"] },
      {
        point: "namespace controller deletes everything inside",
        terms: ["namespace controller", "deletes every", "everything inside", "contents"],
      },
      {
        point: "the kubernetes finalizer is removed last",
        terms: ["kubernetes finalizer", "finalize", "spec.finalizers"],
      },
      {
        point: "waits for objects' finalizers; never ends on envtest",
        terms: ["slowest", "envtest", "never"],
      },
    ],
  },
  {
    id: "08-one-controller",
    notebook,
    section: "5. Orphan: keep the children, hand them to a new owner",
    topic: "deletion",
    difficulty: "intermediate",
    question:
      "Why may only one ownerReference have `controller: true`, and what should a controller do when it finds an object that matches it but has another controller?",
    answer: `\`controller: true\` names the one owner that manages the object: the one that decides its spec, recreates it,
scales it. Two controllers claiming the same object would fight over it (notebook 13 shows such a fight), so the API
server rejects a second controller reference. Plain owner references may be many: an object lives as long as any owner
does.

A controller that finds a matching object with another controller must leave it alone: \`setControllerReference\`
throws \`AlreadyOwnedError\`, controller-runtime returns the same error. It may adopt only objects with no controller
(ReplicaSets adopt orphaned Pods matching their selector) and should release objects that stop matching. Section 5
adopts orphans, which is allowed precisely because the orphan deletion left them without a controller.`,
    keyPoints: [
      { point: "one managing owner, to avoid fights", terms: ["one owner", "manages", "fight", "conflict"] },
      { point: "other owner references may be many", terms: ["many", "several owners", "any owner"] },
      {
        point: "do not adopt an object another controller owns (AlreadyOwned)",
        terms: ["alreadyowned", "leave it", "not adopt"],
      },
      { point: "adopt only orphans", terms: ["orphan", "no controller", "adopt"] },
    ],
  },
  {
    id: "08-gc-retries",
    notebook,
    section: "8. Break it",
    topic: "deletion",
    difficulty: "advanced",
    question: "How does the garbage collector stay correct when its own view is stale or its deletes fail?",
    answer: `It never acts on the graph alone. Before deleting a dependent it GETs the dependent and each of its owners
from the API, and only a proven-absent owner (NotFound, or another uid under that name) counts as gone. Its deletes
carry a uid precondition, its patches the resourceVersion it read, so a decision made on stale data fails with 409 and
is made again with fresh data. A failed call is an error from the worker, and the uid goes back to the rate-limited
queue with backoff.

The cost is extra reads per decision, which is acceptable because decisions happen only around deletions. Section 8
fails two of the collector's ConfigMap deletes with injected 500s: the worker counts two failed decisions, retries, and
the children still go.`,
    keyPoints: [
      { point: "verifies with live GETs before acting", terms: ["get", "verify", "live", "before acting"] },
      {
        point: "conditional writes (uid precondition, resourceVersion)",
        terms: ["precondition", "resourceversion", "conditional", "409"],
      },
      {
        point: "failures are retried through the rate-limited queue",
        terms: ["retry", "backoff", "requeue", "queue"],
      },
    ],
  },
  {
    id: "08-owner-vs-label",
    notebook,
    section: "5. Orphan: keep the children, hand them to a new owner",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "A ConfigSet finds its children by label selector. Why does it also need ownerReferences, and what goes wrong with labels alone?",
    answer: `Labels say which objects **match**; ownerReferences say which objects are **owned**. With labels alone, deleting
the ConfigSet leaves its ConfigMaps behind (nothing tells the collector they belong to it), and two ConfigSets with
overlapping selectors would both count and delete the same children.

The two work together: the controller lists its children by label (a cheap indexed query of the cache), and trusts only
those that also carry its controller reference, adopting matching orphans and ignoring objects controlled by someone
else. The collector uses only the references. Section 5 keeps the label and swaps the reference: the orphans are
adopted by \`cache-v2\` without being recreated.`,
    keyPoints: [
      { point: "labels select, references own", terms: ["match", "select", "owned", "own"] },
      {
        point: "without references, children are not garbage-collected",
        terms: ["not deleted", "left behind", "garbage"],
      },
      { point: "overlapping selectors would fight over children", terms: ["overlap", "both", "fight"] },
      {
        point: "list by label, filter by controller reference",
        terms: ["list by label", "filter", "controller reference", "adopt"],
      },
    ],
  },
  {
    id: "08-go-envtest",
    notebook,
    section: "1. The problem: a cluster with no garbage collector",
    topic: "testing",
    difficulty: "intermediate",
    question:
      "Your controller-runtime tests use envtest. What does envtest.Environment run, what does it not run, and how does that change what your tests may assert?",
    answer: `\`envtest.Environment\` starts a real kube-apiserver and etcd (binaries fetched by setup-envtest), installs your CRDs
(\`CRDDirectoryPaths\`) and hands you a \`rest.Config\`. Everything the API server does itself is real: validation,
defaulting, admission, resourceVersions and 409s, watches, finalizers holding a deletion, owner references being
stored.

What it does not run is everything kube-controller-manager, the scheduler and kubelets do. There is no garbage
collector, so deleting an owner leaves its children (section 1 shows exactly this: the children stay when no
collector runs); no namespace controller, so a deleted namespace stays Terminating; no Deployment or ReplicaSet
controller and no kubelet, so no Pod ever runs. A test may assert that your controller set the controller owner
reference (\`metav1.IsControlledBy\`), not that the children disappear; it may assert that a Deployment was written
with the right spec, not that it became available. Tests written with Gomega's \`Eventually\` and \`Consistently\`,
like the workbook's graders, judge outcomes the API server alone can produce. The Go names are in the glossary
(notebooks/GLOSSARY.md, \`envtest.Environment\`); notebook 08's "The same in Go" section shows the owner reference.`,
    keyPoints: [
      {
        point: "a real kube-apiserver and etcd, with your CRDs",
        terms: ["kube-apiserver", "etcd", "api server", "crd"],
      },
      {
        point: "no controllers: no garbage collector, no namespace deletion, no pods",
        terms: ["garbage", "no controller", "controller-manager", "terminating", "kubelet", "pod"],
      },
      {
        point: "assert on owner references, not on cascading deletion",
        terms: ["ownerreference", "owner reference", "children", "assert"],
      },
    ],
  },
]);
