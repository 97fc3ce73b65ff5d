import { defineQuestions } from "../question.js";

const notebook = "15-testing-a-controller";
const s1 = "1. The controller under test, with six bugs you can switch on";
const s2 = "2. Layer 1: reconcile as a function, with a fake client and a fake clock";
const s3 = "3. Layer 2: the whole controller against a real API server";
const s4 = "4. Layer 3: faults, and why a sleep is a bug in a test";
const s5 = "5. What each layer catches, measured on the planted bugs";

/** Questions for `notebooks/15-testing-a-controller.ipynb`: unit, integration and fault tests of a controller. */
export const testing15 = defineQuestions([
  {
    id: "15-three-layers",
    notebook,
    section: s5,
    topic: "testing",
    difficulty: "basic",
    question:
      "What are the three layers of tests for a Kubernetes controller, and what does each one exercise?",
    answer: `Unit tests call the reconcile function with a cache you fill by hand and a fake client that records what was
sent: they exercise the decision logic (adopt, create, update, delete, return an error) in milliseconds and with
no cluster. Integration tests run the whole controller (informers, handlers, queue, workers) against a real API
server, envtest in Go or the embedded server here: they exercise the wiring, which events wake which key, and the
real server's answers. Fault tests add what production does to a controller: 409 Conflicts, a slow API, dropped
watches; they exercise the recovery paths.

Section 5 measured it: the logic bugs were caught by the unit tests, the bug in the wiring (no watch on the
children) only by the layers with a real server, and the swallowed 409 by the tests that injected one.`,
    keyPoints: [
      {
        point: "unit: reconcile with a fake client and a hand-filled cache",
        terms: ["fake", "unit", "in-memory"],
      },
      {
        point: "integration: the whole controller against a real API server",
        terms: ["envtest", "real api server", "integration", "wiring"],
      },
      {
        point: "faults: 409s, latency, dropped watches",
        terms: ["409", "conflict", "latency", "dropped", "fault"],
      },
      { point: "each catches different bugs", terms: ["catch", "wiring", "logic"] },
    ],
  },
  {
    id: "15-why-not-sleep",
    notebook,
    section: s4,
    topic: "testing",
    difficulty: "basic",
    question:
      "Why is `sleep(500); expect(children).toHaveLength(3)` a bad controller test, and what do you write instead?",
    answer: `A controller converges asynchronously: an event travels through the watch, the informer, the queue and a worker
before the reconcile writes, and each write takes a round trip. How long that takes depends on the machine's load
and the API server's latency, so a fixed sleep is either too short on a busy CI runner (the test is flaky) or too
long everywhere else (the suite is slow). In section 4, with each write delayed by 250 ms, the sleep version failed
(fewer than 3 children after 500 ms) while eventually passed on the same controller.

Write Eventually (Gomega) or eventually (here): poll the observed state with a deadline, pass as soon as it is
right. For "nothing happens", use Consistently over a window, not a sleep followed by one look.`,
    keyPoints: [
      {
        point: "convergence time depends on load and latency",
        terms: ["load", "latency", "busy", "asynchron"],
      },
      { point: "too short is flaky, too long is slow", terms: ["flaky", "slow"] },
      { point: "poll the state with a deadline", terms: ["eventually", "poll", "deadline"] },
      { point: "consistently for negative checks", terms: ["consistently"] },
    ],
  },
  {
    id: "15-consistently",
    notebook,
    section: s3,
    topic: "testing",
    difficulty: "intermediate",
    question: "When do you need Consistently rather than Eventually in a controller test? Give two examples.",
    answer: `Eventually proves that something good happens; it cannot prove that something bad does not. Whenever the bug is an
extra action, you need a window in which the state must hold: no duplicate children appear after convergence, the
controller stops writing once converged (no hot loop), a deleted object does not come back, an object it must not
touch keeps its resourceVersion. Section 3's "idle means idle" test samples the children's resourceVersions for a
second; the hot-loop variant, which stamps a timestamp on every pass, fails it at the first sample that moved.
Section 4's slow-API test checks that exactly four children stay for a second.

The trade-off: Consistently always costs its whole window, so keep windows short and few, and choose what to
sample so one bad write is enough to fail it.`,
    keyPoints: [
      {
        point: "eventually cannot prove absence",
        terms: ["absence", "does not happen", "not happen", "extra"],
      },
      { point: "hot loop / no writes when idle", terms: ["hot loop", "idle", "resourceversion", "no write"] },
      { point: "no duplicates", terms: ["duplicate"] },
      { point: "costs the whole window", terms: ["window", "cost", "duration"] },
    ],
  },
  {
    id: "15-fake-client",
    notebook,
    section: s2,
    topic: "testing",
    difficulty: "basic",
    question:
      "What does a fake client give a reconcile unit test, and what must it imitate from the real API server to be useful?",
    answer: `It replaces the network: the reconcile's writes land in memory, and the test can read back both the resulting objects
and the list of calls, in order (client-go's fake clientset records Actions(); controller-runtime's fake client
keeps a tracker). So a unit test can assert "three creates, nothing else" or "a second pass sends nothing".

To be useful it must answer like the server where the reconcile depends on it: AlreadyExists for a create of an
existing name, Conflict for an update carrying an old resourceVersion, NotFound for a missing object, a new
resourceVersion on every write. Section 2's fake does exactly those, which is what let the lagging-cache test catch
random names. What it does not imitate (admission, defaulting, validation, the garbage collector, watch events) is
what the integration layer is for.`,
    keyPoints: [
      { point: "records the calls in order", terms: ["record", "actions", "order"] },
      { point: "in memory, no network", terms: ["memory", "no cluster", "network"] },
      {
        point: "must answer AlreadyExists, Conflict, NotFound",
        terms: ["alreadyexists", "already exists", "conflict", "notfound", "not found"],
      },
      {
        point: "does not imitate admission, validation, GC",
        terms: ["admission", "validation", "garbage", "defaulting"],
      },
    ],
  },
  {
    id: "15-fake-clock",
    notebook,
    section: s2,
    topic: "testing",
    difficulty: "intermediate",
    question:
      "How do you test that a controller retries a failed reconcile with exponential backoff, without the test waiting for it?",
    answer: `Give the controller's queue a fake clock (client-go's clock/testing.FakeClock; FakeClock here) and make the reconcile
fail on purpose, for example with an interceptor that refuses the next two updates with 409. Time then stands
still: a failure parks the key on the delaying queue with a timer on the fake clock, and the test steps the clock
to that timer and sees the next attempt. In section 2 the attempts ran at 0, 5 and 15 ms of fake time: the default
controller rate limiter's 5 ms, then 10 ms, with no real waiting at all.

The test asserts the contract (an error is retried, later each time, until it succeeds) on exact numbers, which a
real-clock test could only bound. The catch: everything with a timer must take the clock as a parameter, which is
why client-go and this library pass a Clock everywhere.`,
    keyPoints: [
      { point: "a fake clock injected into the queue", terms: ["fake clock", "fakeclock", "clock"] },
      { point: "step or advance to the timer", terms: ["step", "advance", "timer"] },
      { point: "5 ms then 10 ms", terms: ["5 ms", "10 ms", "double", "exponential"] },
      { point: "every timer must use the injected clock", terms: ["inject", "parameter", "everywhere"] },
    ],
  },
  {
    id: "15-envtest",
    notebook,
    section: s3,
    topic: "testing",
    difficulty: "intermediate",
    question: "What is envtest, and what does a test running on it not get from a real cluster?",
    answer: `envtest (controller-runtime's pkg/envtest) starts a real etcd and kube-apiserver from binaries, installs your CRDs and
gives the test a rest.Config; the test starts the manager against it. So the API semantics are real: validation,
defaulting, resourceVersions, 409s, watch events, the status subresource.

What it does not run: kube-controller-manager, the scheduler and the kubelet. No garbage collector (children with
an ownerReference stay after their owner is deleted), no namespace controller (a deleted namespace stays
Terminating), no Pods that ever run. Tests on envtest therefore assert the ownerReference, not the deletion the GC
would do. Section 3 says where this workbook differs: the embedded server runs a garbage collector and a namespace
controller, and the workbook's envtest backend adds kube-controller-manager with just those two.`,
    keyPoints: [
      {
        point: "real etcd and kube-apiserver binaries",
        terms: ["etcd", "kube-apiserver", "binaries", "real api server"],
      },
      { point: "no controllers: no GC", terms: ["garbage", "gc", "kube-controller-manager"] },
      { point: "namespaces stay Terminating", terms: ["terminating", "namespace"] },
      { point: "assert the ownerReference instead", terms: ["ownerreference", "owner reference"] },
    ],
  },
  {
    id: "15-wiring-bug",
    notebook,
    section: s5,
    topic: "testing",
    difficulty: "intermediate",
    question:
      "Your reconcile has 100% unit test coverage. Name a bug that the unit tests still cannot catch, and the test that does.",
    answer: `Anything outside the reconcile function: the wiring. The measured example in section 5 is a controller that watches
only its primary resource: the reconcile is correct, so every unit test passes, but a child deleted by someone
else wakes nothing, and the child stays missing until the next resync. The integration test "a child deleted by
someone else comes back" caught it against a real API server. Other wiring bugs of the same kind: a missing
handler or a wrong owner type for Owns, a predicate that hides a needed event, not waiting for the caches to sync,
a label selector on the informer that excludes the objects the reconcile lists.

Coverage counts lines executed, not events delivered; the wiring is exercised only when real events flow.`,
    keyPoints: [
      { point: "the wiring is outside the reconcile", terms: ["wiring", "handler", "watch"] },
      { point: "example: no watch on the children", terms: ["child", "owns", "no-child-watch"] },
      {
        point: "integration test against a real API server",
        terms: ["integration", "envtest", "api server"],
      },
      { point: "coverage is not events", terms: ["coverage", "event"] },
    ],
  },
  {
    id: "15-lagging-cache-test",
    notebook,
    section: s2,
    topic: "cache",
    difficulty: "advanced",
    question:
      "How would you write a deterministic test that a reconcile does not create duplicate children when the cache lags behind its own writes?",
    answer: `Make the lag explicit instead of hoping for it. In a unit test the cache is a lister you control, so hand the
reconcile a cache that has not seen anything it wrote (section 2 uses an empty Indexer) and run it twice: the
second pass believes the children are missing and creates them again. A reconcile that names its children
deterministically gets AlreadyExists from the fake and counts them; one that uses random names (or generateName)
creates three more. The test asserts the count in the fake API, which is what a real cluster would hold.

In an integration run the same race depends on timing: in section 5 the random-names variant passed layer 2, and
layer 3 could catch it only because the slow API made the race likely, not certain. That is the argument for
testing races where you control time and order, and keeping the integration layer for wiring.`,
    keyPoints: [
      { point: "control the cache: a stale or empty lister", terms: ["stale", "empty", "frozen", "control"] },
      { point: "reconcile twice", terms: ["twice", "second pass"] },
      {
        point: "deterministic names give AlreadyExists",
        terms: ["deterministic", "alreadyexists", "already exists"],
      },
      { point: "integration runs only hit it by chance", terms: ["timing", "chance", "race", "usually"] },
    ],
  },
  {
    id: "15-swallowed-conflict",
    notebook,
    section: s4,
    topic: "reconcile",
    difficulty: "intermediate",
    question:
      "A reconcile catches a 409 Conflict on update and returns success, reasoning that the next event will fix it. What goes wrong, and which test shows it?",
    answer: `The 409 means the cache was behind and nothing was written. Returning success tells the controller to forget the key,
so no retry is scheduled; the change stays unapplied until some unrelated event or the next resync wakes the key,
which may be never for a quiet object. Returning the error instead puts the key back on the rate-limited queue:
it is retried after 5 ms, 10 ms, ..., reads the cache again, and the update lands.

It shows only where a 409 happens on demand: section 2's fake-clock test (the interceptor refuses two updates; no
retry is ever scheduled) and section 4's fault test (the spec edit never reaches the children within the deadline).
A plain integration run almost never produces the 409, so it passes.`,
    keyPoints: [
      { point: "nothing was written", terms: ["nothing written", "not written", "lost", "unapplied"] },
      { point: "success forgets the key: no retry", terms: ["forget", "no retry", "not retried"] },
      {
        point: "return the error: rate-limited retry",
        terms: ["return the error", "rate-limit", "backoff", "requeue"],
      },
      { point: "needs injected 409s to show", terms: ["inject", "interceptor", "fault"] },
    ],
  },
  {
    id: "15-fault-injection",
    notebook,
    section: s4,
    topic: "testing",
    difficulty: "advanced",
    question:
      "Where can you inject faults in a controller test, and which faults need the API server's help?",
    answer: `Between the controller and the server, on the client: a wrapper that fails or delays chosen calls
(controller-runtime's interceptor.Funcs, client-go's PrependReactor on a fake clientset, the intercept() of
section 2). It works on every backend and targets exactly the controller's calls: 409s on update, latency on
writes, a 500 on create.

Some faults live in the server: closing every open watch (the reflector must re-watch from its last
resourceVersion), compacting history so a re-watch gets 410 Expired and must relist, latency on the watch and
list requests themselves. Those need the server's cooperation: the embedded server's instruments.faults
(dropWatches, compactHistory, latency, failNext), or in a real cluster a proxy in front of the API server.
envtest has no such switch, which is why section 4 skips the dropped-watch test there.`,
    keyPoints: [
      { point: "client-side wrapper or reactor", terms: ["interceptor", "reactor", "wrapper", "client"] },
      { point: "409s and latency on chosen calls", terms: ["409", "latency", "conflict"] },
      {
        point: "server-side: dropped watches, compaction/410",
        terms: ["dropped", "watch", "410", "compact"],
      },
      { point: "needs instruments or a proxy", terms: ["instruments", "proxy"] },
    ],
  },
  {
    id: "15-hot-loop",
    notebook,
    section: s1,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "Why does writing a `reconciled-at` timestamp on every pass turn a controller into a hot loop, and how do you test for it?",
    answer: `Each write changes the object, so the API server sends a watch event; the controller watches its children and maps
the event back to the owner's key; the key is reconciled again; it writes a new timestamp; and so on, forever, with
no change in the desired state. The loop is only as slow as the round trip.

Two tests catch it in section 5. The unit test "converged: a second pass sends nothing" asserts that the fake
recorded no write on the second pass. The integration test "idle means idle" asserts with Consistently that the
children's resourceVersions do not move for a second. A real API server does not send an event for an update that
changes nothing, which is why a write of identical content does not loop; a timestamp always changes.`,
    keyPoints: [
      { point: "each write is an event that wakes the owner", terms: ["event", "wake", "watch"] },
      { point: "no change in desired state: forever", terms: ["forever", "loop", "never stops"] },
      { point: "unit: second pass sends nothing", terms: ["second pass", "no write", "nothing"] },
      {
        point: "integration: consistently resourceVersions still",
        terms: ["consistently", "resourceversion"],
      },
    ],
  },
  {
    id: "15-which-first",
    notebook,
    section: s5,
    topic: "testing",
    difficulty: "advanced",
    question:
      "With limited time, how would you split a controller's tests between unit, envtest and fault tests, and why?",
    answer: `Most cases as unit tests of the reconcile: every branch of the decision (create, adopt, update, delete, nothing to do,
object gone, 409 returned), cheap and deterministic, with races made explicit by a stale cache or a fake clock.
A handful of envtest (integration) tests for the wiring: one per watch (primary, owned children, mapped
resources), that the caches sync before work starts, that the controller goes quiet once converged, and what the
real server adds (validation, defaulting, the status subresource). A few fault tests for the recovery paths that
production will exercise: 409s, a dropped watch, a slow API.

Section 5's table is the argument: the millisecond unit layer caught every bug that lives in the reconcile, the
wiring bug only the layers with a server, and the server layers pay a deadline for every bug they catch.`,
    keyPoints: [
      {
        point: "most cases in unit tests: cheap, deterministic",
        terms: ["unit", "cheap", "deterministic", "fast"],
      },
      { point: "few integration tests for the wiring", terms: ["wiring", "envtest", "integration", "watch"] },
      { point: "fault tests for recovery paths", terms: ["fault", "409", "recovery", "dropped"] },
      { point: "cost: deadlines and windows", terms: ["deadline", "cost", "window", "slow"] },
    ],
  },
]);
