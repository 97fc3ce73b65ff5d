import { defineQuestions } from "../question.js";

const notebook = "00-cluster";

/**
 * Questions for `notebooks/00-cluster.ipynb`: the API every later notebook talks to (backends, kubeconfig,
 * resourceVersion, Status errors, what requests cost, transient failures).
 */
export const cluster00 = defineQuestions([
  {
    id: "00-backends",
    notebook,
    section: "1. Start the cluster",
    topic: "api-basics",
    difficulty: "basic",
    question:
      "Your controller passes its tests on envtest and on kind. What can differ between the two, if the code is the same?",
    answer: `The API is the same, so list, watch, create and the error codes behave alike. What differs is **what else runs**
next to the API server. envtest starts only etcd and kube-apiserver: no scheduler, no kubelet, no
kube-controller-manager, so owned objects are never garbage-collected and a deleted namespace stays
\`Terminating\` forever. kind is a whole cluster: Pods run and the garbage collector deletes children.

The trade-off: envtest starts in seconds and is enough to test a controller's own logic; kind is slower but shows
the interaction with the built-in controllers. Section 1 of the notebook starts whichever \`WORKBOOK_CLUSTER\` names,
and the code below it never asks which one it got.`,
    keyPoints: [
      {
        point: "the API and its semantics are the same",
        terms: ["same api", "same semantics", "same rest", "api is the same"],
      },
      {
        point: "envtest runs no built-in controllers (no GC, no kubelet, no scheduler)",
        terms: ["garbage", "no controller", "controller-manager", "kubelet", "scheduler"],
      },
      { point: "namespace deletion never finishes on envtest", terms: ["terminating", "namespace"] },
      { point: "speed against realism", terms: ["fast", "slow", "seconds", "realis"] },
    ],
  },
  {
    id: "00-resource-version",
    notebook,
    section: "2. Create and list objects",
    topic: "api-basics",
    difficulty: "basic",
    question: "What is `metadata.resourceVersion`, and why must a client treat it as an opaque string?",
    answer: `It names the version of the store at which the object last changed (on a real cluster it comes from etcd's
revision). The server uses it for **optimistic concurrency** (an update that carries an old resourceVersion is
refused with 409 Conflict) and for **watch resumption** (watch from the version you last saw).

It is opaque because its format is the server's business: the API only promises that two equal values mean the
same version. Comparing them as numbers happens to work on today's servers and breaks on any storage that
numbers differently. In section 2 the three ConfigMaps get three different values; we only print them.`,
    keyPoints: [
      {
        point: "the version of the object in the store",
        terms: ["version of", "last changed", "etcd", "revision"],
      },
      {
        point: "used for optimistic concurrency (409 on a stale update)",
        terms: ["optimistic", "conflict", "409"],
      },
      { point: "used to resume a watch", terms: ["watch", "resume"] },
      {
        point: "compare only for equality, never as numbers",
        terms: ["opaque", "equality", "not a number", "don't compare"],
      },
    ],
  },
  {
    id: "00-list-resource-version",
    notebook,
    section: "2. Create and list objects",
    topic: "watch",
    difficulty: "intermediate",
    question: "A LIST response has its own resourceVersion, separate from its items'. What is it for?",
    answer: `It is the version of the store the **whole list** was read at: every change up to it is in the list, none after
it. An informer lists once and then opens a watch **from that version**, so the watch delivers exactly the changes
the list did not contain: nothing is missed and nothing is seen twice.

Taking the newest item's resourceVersion instead would be wrong: a deletion leaves no item behind, and the list
may have been read later than its newest item changed. Section 2 prints the list's version next to the items'.`,
    keyPoints: [
      {
        point: "the store version the list was read at",
        terms: ["read at", "snapshot", "whole list", "consistent"],
      },
      { point: "the watch starts from it", terms: ["watch from", "start the watch", "then watch", "watch"] },
      {
        point: "no gap and no duplicate between list and watch",
        terms: ["miss", "gap", "twice", "duplicate"],
      },
    ],
  },
  {
    id: "00-namespace-per-run",
    notebook,
    section: "2. Create and list objects",
    topic: "testing",
    difficulty: "basic",
    question:
      "Why does every notebook, lab and test in this workbook create its own namespace with a unique name?",
    answer: `So runs cannot see each other. A second run of the same notebook, a test running beside another one, or a shared
real cluster would otherwise find objects left by someone else and count them, or collide on names (409
AlreadyExists). A unique name also works where a namespace cannot be reused quickly: on envtest a deleted
namespace never finishes deleting.

The cost is cleanup: each run must delete what it created (section 8 does), and a filter on the namespace is still
needed because a real cluster may add objects of its own (the \`kube-root-ca.crt\` ConfigMap).`,
    keyPoints: [
      {
        point: "isolation between runs and tests",
        terms: ["isolat", "collide", "interfere", "each other", "other run"],
      },
      {
        point: "re-running works (Run All twice)",
        terms: ["twice", "rerun", "re-run", "again", "second run"],
      },
      { point: "deleted namespaces may linger (envtest)", terms: ["terminating", "envtest", "never finish"] },
      { point: "each run cleans up after itself", terms: ["clean", "delete"] },
    ],
  },
  {
    id: "00-status-errors",
    notebook,
    section: "3. Errors are Status objects",
    topic: "api-basics",
    difficulty: "basic",
    question:
      "A call to the API server fails. How does a controller tell 'the object is gone' from 'someone else wrote first'?",
    answer: `Every failure carries a \`Status\` object: an HTTP code and a machine-readable \`reason\`. Gone is **404 NotFound**;
someone-wrote-first is **409 Conflict**. A controller branches on the code or reason, never on the message text,
which is meant for people and may change.

The two call for opposite reactions: NotFound during a reconcile usually means the work is done (the object was
deleted; stop quietly), Conflict means re-read the latest version and try again. Section 3 reads a missing
ConfigMap and prints the code and reason the server sent.`,
    keyPoints: [
      { point: "a Status with code and reason", terms: ["status", "reason"] },
      { point: "404 NotFound means gone", terms: ["404", "notfound", "not found"] },
      { point: "409 Conflict means a stale write", terms: ["409", "conflict"] },
      {
        point: "branch on reason/code, not on the message",
        terms: ["not the message", "message text", "machine-readable", "code"],
      },
    ],
  },
  {
    id: "00-conflict-is-normal",
    notebook,
    section: "3. Errors are Status objects",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "Your controller logs 'the object has been modified; please apply your changes to the latest version'. Is that a bug?",
    answer: `Usually not. It is a **409 Conflict** from optimistic concurrency: the update carried a resourceVersion that is no
longer current, because another writer (or this controller's own earlier write, not yet seen by its cache) got
there first. The server refused to overwrite a change the controller never saw, which is the point.

The fix is to **requeue and reconcile again from fresh state**, not to force the write or retry the same stale
object in a loop. A rate-limited requeue turns a burst of conflicts into a few retries. It becomes a bug only
when it never stops: two controllers fighting over one field. Section 3 shows the error shape this comes in.`,
    keyPoints: [
      {
        point: "it is optimistic concurrency on resourceVersion",
        terms: ["optimistic", "resourceversion", "stale"],
      },
      {
        point: "another writer or a stale cache came first",
        terms: ["another writer", "someone else", "stale cache", "cache"],
      },
      { point: "re-read and retry (requeue), do not force", terms: ["requeue", "re-read", "retry", "fresh"] },
      {
        point: "a never-ending conflict means two writers fight",
        terms: ["fight", "two controllers", "never stops", "same field"],
      },
    ],
  },
  {
    id: "00-list-watch-cost",
    notebook,
    section: "4. What did that cost?",
    topic: "watch",
    difficulty: "intermediate",
    question:
      "A cluster runs dozens of controllers over thousands of objects. Why is the API server not flooded with GETs?",
    answer: `Because controllers do not ask for each object when they need it. Each informer does **one LIST, then keeps one
WATCH open** per resource, and the controller reads objects from its local cache. The request count grows with the
number of resources watched, not with the number of objects or reconciles; the watch stream carries only changes.

The trade-off is memory and staleness: every controller holds a copy of what it watches, and the copy can lag
behind the server by the watch's delay. Section 4 counts the embedded control plane's requests: a handful of lists,
a few long-lived watches, and the bars stay flat however many objects change.`,
    keyPoints: [
      { point: "one list then one watch per resource", terms: ["list", "watch"] },
      { point: "reads come from a local cache", terms: ["cache", "informer", "lister", "memory"] },
      {
        point: "cost grows with resources, not objects or reconciles",
        terms: ["per resource", "not per object", "does not grow", "flat"],
      },
      { point: "costs memory and may be stale", terms: ["memory", "stale", "lag"] },
    ],
  },
  {
    id: "00-retry-server-errors",
    notebook,
    section: "5. Break it: a flaky API server",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "The API server answers 500 or 429 to a request your controller makes. Retry at once, give up, or something else?",
    answer: `Retry, **later**. A 5xx or a 429 TooManyRequests says nothing about the object: the same request can succeed in a
moment. But an immediate retry loop adds load exactly when the server is struggling (429 even says "slow down",
often with a Retry-After). So the reconcile returns the error and the key goes back on the queue **rate-limited**:
the per-key exponential backoff spaces the retries out, and the overall token bucket caps the total.

Giving up loses the work; retrying hot makes the outage worse. Section 5 injects failures into the embedded
server and shows that a plain retry with a pause gets through once the faults are used up.`,
    keyPoints: [
      { point: "transient: the same request can succeed later", terms: ["transient", "temporar", "later"] },
      { point: "back off instead of retrying hot", terms: ["backoff", "back off", "exponential", "delay"] },
      { point: "requeue the key rate-limited", terms: ["requeue", "rate-limit", "rate limit", "queue"] },
      { point: "429 asks the client to slow down (Retry-After)", terms: ["retry-after", "slow down", "429"] },
    ],
  },
  {
    id: "00-kubeconfig",
    notebook,
    section: "1. Start the cluster",
    topic: "api-basics",
    difficulty: "basic",
    question:
      "What does a kubeconfig contain, and how does the same controller code end up talking to envtest, kind or a production cluster?",
    answer: `A kubeconfig names **clusters** (server URL and the CA that signs its certificate), **users** (credentials: a
client certificate, a token or an exec plugin) and **contexts** that pair one of each, plus the current context.
A client library builds its HTTP client from the current context, so the code only ever sees "an API server";
which one it is lives entirely in the file (or, inside a Pod, in the mounted service-account token and CA).

That is why the workbook's \`startCluster()\` hands back a \`kubeConfig\` and a \`kubeconfigPath\` and nothing else
about the backend: section 1 prints the server URL from it, and \`kubectl\` pointed at the same file sees the same
objects. The trade-off: a wrong current context is also invisible to the code, which is how people run a test
suite against production.`,
    keyPoints: [
      { point: "clusters, users (credentials) and contexts", terms: ["cluster", "user", "context"] },
      { point: "server URL and CA to trust", terms: ["server", "url", "ca", "certificate"] },
      {
        point: "the code only sees the current context",
        terms: ["current context", "only sees", "same code"],
      },
      {
        point: "in a Pod: the service-account token",
        terms: ["service-account", "service account", "in-cluster"],
      },
    ],
  },
  {
    id: "00-kubectl-cost",
    notebook,
    section: "4. What did that cost?",
    topic: "api-basics",
    difficulty: "basic",
    question:
      "kubectl and your controller both talk to the API server. What does running `kubectl get configmaps -A` cost the server, compared with an informer?",
    answer: `kubectl makes a few discovery requests (which groups and resources exist, cached on disk afterwards) and then
**one LIST** of ConfigMaps in all namespaces, printed and forgotten: the next \`kubectl get\` lists again.
\`kubectl get -w\` adds one WATCH from the list's resourceVersion, which is what an informer does, minus the cache.

An informer pays the LIST once and keeps the WATCH open; every later read is from memory. So a script that runs
\`kubectl get\` in a loop is a poller, with the poller's cost (notebook 01), while a controller's reads are free
for the server. Section 4 shows the request counters, and its try-it prompt runs kubectl against the embedded
server to watch its LIST appear in them.`,
    keyPoints: [
      { point: "discovery requests first", terms: ["discovery"] },
      { point: "one LIST per get, nothing kept", terms: ["one list", "list"] },
      { point: "-w adds a watch from the list's resourceVersion", terms: ["-w", "watch"] },
      { point: "kubectl in a loop is polling", terms: ["poll", "loop"] },
    ],
  },
  {
    id: "00-not-found-in-reconcile",
    notebook,
    section: "3. Errors are Status objects",
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "Your reconcile reads its object and gets NotFound. What should it do, and what must it not do?",
    answer: `Treat it as success and return: the object was deleted, so there is nothing left to bring in line. The
key was queued by the delete event (or by an older event that arrived before the delete), and the reconcile is
level-triggered: it acts on what exists now, not on why it was woken.

It is not an error: do not retry until the object "comes back", do not log it as a failure, do not
recreate it. Cleanup of things outside the cluster cannot rely on seeing this moment either: by the time the
reconcile runs the object is gone, with nothing left to read, which is why finalizers exist (notebook 07).
Section 3 shows the 404 NotFound a missing object returns.`,
    keyPoints: [
      {
        point: "NotFound means deleted: return success",
        terms: ["success", "return", "nothing to do", "deleted"],
      },
      {
        point: "do not retry or treat it as an error",
        terms: ["not retry", "don't retry", "not an error", "no retry"],
      },
      { point: "level-triggered: act on what exists now", terms: ["level", "exists now", "current state"] },
      { point: "external cleanup needs a finalizer", terms: ["finalizer"] },
    ],
  },
  {
    id: "00-too-many-requests",
    notebook,
    section: "5. Break it: a flaky API server",
    topic: "api-basics",
    difficulty: "advanced",
    question:
      "Where can a 429 TooManyRequests come from, and what protects the API server from a controller that misbehaves?",
    answer: `On a real cluster a 429 comes from **API Priority and Fairness** (APF): requests are classified into priority
levels by flow schemas (per user, service account or resource), each level gets a share of the server's concurrency,
and a level whose queues are full rejects with 429 and a Retry-After. Older servers used a flat max-in-flight limit
with the same status.

The client side protects too: client-go's clients have their own token bucket (QPS and burst) and the workqueue's
rate limiter spaces out retries, so one controller in a hot loop slows itself down before the server has to. APF
then keeps a flood from one client from starving the others. Section 5 injects 429s and 500s into the embedded
server and retries with a growing pause, the same shape a rate-limited requeue has.`,
    keyPoints: [
      {
        point: "API Priority and Fairness: priority levels and flow schemas",
        terms: ["priority and fairness", "apf", "flow schema", "priority level"],
      },
      {
        point: "429 with Retry-After when a level is saturated",
        terms: ["retry-after", "saturat", "queues are full", "full"],
      },
      {
        point: "client-side rate limits (QPS, burst)",
        terms: ["qps", "burst", "token bucket", "client-side"],
      },
      { point: "the workqueue's backoff spaces retries", terms: ["backoff", "rate limiter", "workqueue"] },
    ],
  },
]);
