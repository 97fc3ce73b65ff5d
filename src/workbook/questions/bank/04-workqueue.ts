import { defineQuestions } from "../question.js";

const notebook = "04-workqueue";
const S1 = "1. The problem: a FIFO of object snapshots";
const S2 = "2. Build it small: queue, dirty, processing";
const S3 = "3. The real one: `Queue` under concurrent workers";
const S4 = "4. Rate limiters on a fake clock";
const S5 = "5. Break it: a flaky API server";

/**
 * Questions for `notebooks/04-workqueue.ipynb`: keys on a deduplicating, rate-limited queue (client-go's
 * `util/workqueue`: the queue's dirty and processing sets, the rate limiters, `done` and `forget`).
 */
export const workqueue04 = defineQuestions([
  {
    id: "04-keys-not-objects",
    notebook,
    section: S1,
    topic: "workqueue",
    difficulty: "basic",
    question:
      "Why does a controller put keys (`namespace/name`) on its workqueue instead of the objects themselves?",
    answer: `Because an object in a queue is a snapshot that ages, and a key is not. While a key waits, any number of further
changes to its object collapse into it (the queue already holds the key), and when a worker finally gets it, it
reads the **latest** state from the informer's cache. With objects, every change is a separate item, and the
worker reconciles versions that the cache has already replaced: wasted work, and sometimes harmful work (acting
on an old spec).

Keys also make the reconcile level-triggered: it looks at the state now, not at what one event said. Section 1
measured it: ten updates gave ten reconciles (nine stale) with snapshots and one reconcile of version 10 with
keys. The price: the worker must read the object (from the cache, cheaply), and it no longer knows which event
caused the run, which a level-triggered reconcile should not need.`,
    keyPoints: [
      { point: "keys collapse bursts (dedup)", terms: ["collapse", "dedup", "once", "absorb"] },
      { point: "the worker reads the latest state from the cache", terms: ["latest", "cache", "current"] },
      { point: "snapshots go stale and cause wasted work", terms: ["stale", "snapshot", "old", "wasted"] },
      { point: "level-triggered: no need to know the event", terms: ["level", "event"] },
    ],
  },
  {
    id: "04-burst-collapse",
    notebook,
    section: S1,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "An object changes ten times in 50 ms. How many times is it reconciled if the worker is idle, and if the worker is in the middle of reconciling it when the burst starts?",
    answer: `If the worker is busy elsewhere until the burst is over: **once**, because the first add queues the key and the
nine others find it already dirty. If the worker is idle, it may get the key after the first change and
reconcile while the other nine arrive; those collapse into one more run after \`done\`: **two**. If the worker is
in the middle of reconciling that key, the same: the adds park the key in the dirty set and it runs **once more**
after \`done\`.

So the count is bounded by about two per burst, never ten, and the last run always sees the final version.
Section 1 shows the single run (workers started after the burst); the first try-it prompt starts the worker
before the burst and counts again.`,
    keyPoints: [
      { point: "busy worker: once", terms: ["once", "one"] },
      {
        point: "worker active on it: one more run after done",
        terms: ["after done", "once more", "two", "park"],
      },
      {
        point: "never one run per event; the last run sees the final version",
        terms: ["final", "latest", "last"],
      },
    ],
  },
  {
    id: "04-three-sets",
    notebook,
    section: S2,
    topic: "workqueue",
    difficulty: "intermediate",
    question: "client-go's workqueue keeps a queue, a dirty set and a processing set. What is each one for?",
    answer: `The **queue** is the order keys are handed out in (first added, first served). The **dirty** set holds every key
that needs work: \`add\` of a key already dirty does nothing, which is the deduplication. The **processing** set holds
the keys workers hold between \`get\` and \`done\`.

Together they give the invariants: a key in the queue is dirty and not processing; a key can be dirty and
processing at once (re-added while held), and then it is kept out of the queue until \`done\` puts it back. That
is how a key is never handed to two workers and never lost. Section 2 builds these three sets in thirty lines and
steps through them with the live \`workqueueDiagram\`.`,
    keyPoints: [
      { point: "queue: the order of hand-out", terms: ["order", "fifo", "queue"] },
      { point: "dirty: needs work, gives dedup", terms: ["dirty", "dedup", "needs work"] },
      { point: "processing: held by a worker", terms: ["processing", "held", "worker"] },
      { point: "re-added while processing waits for done", terms: ["done", "parked", "re-add", "readd"] },
    ],
  },
  {
    id: "04-readd-while-processing",
    notebook,
    section: S2,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "A key is added while a worker is reconciling it. Why does the queue not hand it to a second, idle worker right away?",
    answer: `Because two workers would then reconcile the same object at once: both read the cache, both compute changes, both
write, and they race (409 Conflicts at best, a lost or doubled action at worst, such as two cloud resources
created for one object). So the queue parks the key in the dirty set and keeps it out of the queue. When the
first worker calls \`done\`, the key goes back on the queue and runs **once more**, seeing the change that arrived
during the first run. Dropping the add would be wrong too: that change would never be reconciled.

Section 2's table shows the parked key (dirty and processing at once) and its re-queue on \`done\`; section 3
measures at most one holder per key under four concurrent workers.`,
    keyPoints: [
      {
        point: "two workers on one key would race",
        terms: ["race", "two workers", "concurrent", "conflict"],
      },
      { point: "parked in dirty until done", terms: ["dirty", "park", "until done"] },
      {
        point: "runs once more after done, not dropped",
        terms: ["once more", "again", "not lost", "not dropped"],
      },
    ],
  },
  {
    id: "04-no-two-workers",
    notebook,
    section: S3,
    topic: "workqueue",
    difficulty: "basic",
    question: "A controller runs five workers. Does its reconcile need a lock per object?",
    answer: `No: the workqueue is the lock. It never hands a key to a worker while another worker holds it (between \`get\` and
\`done\`), so one object is reconciled by at most one worker at a time, while different objects are reconciled in
parallel. Workers add throughput across keys, not within a key.

This only holds if every path calls \`done\` (a \`finally\` block) and if the reconcile of one key does not write
other objects that another key's reconcile writes too; shared state across keys still needs care. Section 3 ran
four workers with keys re-added while held and measured at most one holder per key.`,
    keyPoints: [
      {
        point: "the queue never gives one key to two workers",
        terms: ["never", "one worker", "two workers", "at most one"],
      },
      { point: "parallel across keys, serial per key", terms: ["parallel", "different", "across keys"] },
      { point: "requires done on every path", terms: ["done", "finally"] },
    ],
  },
  {
    id: "04-done-vs-forget",
    notebook,
    section: S4,
    topic: "workqueue",
    difficulty: "basic",
    question:
      "What is the difference between `done` and `forget` on a rate-limiting queue, and what breaks if you leave out either?",
    answer: `\`done(key)\` tells the **queue** the worker is finished with the key: it leaves the processing set, and if it was
re-added meanwhile it is queued again. Call it after every \`get\`, success or failure. Without it the key stays
"processing" forever: every later add parks it, and that object is never reconciled again.

\`forget(key)\` tells the **rate limiter** to drop the key's failure history. Call it on success. Without it the
next failure of that key, maybe days later, continues the backoff where it stopped (seconds or minutes instead of
5 ms). Section 4 measured 5, 10, 20, 40 ms, then \`forget\`, then 5 ms again; the last try-it prompt removes the
\`forget\`.`,
    keyPoints: [
      {
        point: "done releases the key in the queue; always call it",
        terms: ["done", "processing", "always", "release"],
      },
      { point: "without done the key is stuck forever", terms: ["stuck", "never", "forever"] },
      {
        point: "forget resets the limiter's history on success",
        terms: ["forget", "reset", "history", "backoff"],
      },
      { point: "without forget the next failure waits long", terms: ["long", "continues", "grows"] },
    ],
  },
  {
    id: "04-backoff-curve",
    notebook,
    section: S4,
    topic: "workqueue",
    difficulty: "basic",
    question:
      "With client-go's default controller rate limiter, how long does a key wait after its 1st, 2nd, 10th and 25th consecutive failure?",
    answer: `The per-key part is an exponential backoff of 5 ms doubling per failure, capped at 1000 s: 5 ms after the first,
10 ms after the second, 5 x 2^9 = 2.56 s after the tenth, and 1000 s (the cap, reached at the 19th) after the 25th.
The shared token bucket only adds to this when many keys fail together.

The curve is steep on purpose: a transient error is retried almost at once, a persistent one quickly stops
costing anything. The trade-off is a long delay for an object that was broken for a while and is then fixed: its
next retry may be up to about 17 minutes away, unless something (an update event, a resync) adds the key again.
Section 4 draws the curve from the real limiter on a fake clock.`,
    keyPoints: [
      { point: "5 ms doubling", terms: ["5 ms", "5ms", "doubl", "exponential"] },
      { point: "capped at 1000 s", terms: ["1000", "cap", "max"] },
      { point: "a new event re-adds the key sooner", terms: ["event", "update", "resync", "sooner"] },
    ],
  },
  {
    id: "04-token-bucket",
    notebook,
    section: S4,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "Why does the default limiter add a token bucket shared by all keys, on top of the per-key backoff?",
    answer: `Per-key backoff limits how often **one** key is retried, but not how many keys retry at once. When a dependency
fails (the API server, a cloud API), thousands of keys fail together, each with a small first delay: without a
global limit they would all retry within milliseconds, again and again, hammering the very thing that is down.
The bucket (10 per second, burst 100 in client-go's default) lets 100 retries through at once and then spaces the
rest 100 ms apart.

The trade-off: one shared budget, so a storm of failures in one part of the controller delays retries everywhere.
Section 4 asks 200 keys at the same instant: the first 100 wait nothing, key 101 waits 100 ms, key 200 waits 10 s.`,
    keyPoints: [
      {
        point: "backoff is per key; many keys can fail together",
        terms: ["many keys", "together", "per key", "thousands"],
      },
      { point: "the bucket caps the overall retry rate", terms: ["overall", "global", "rate", "qps"] },
      { point: "10 qps, burst 100", terms: ["10", "100", "burst"] },
      { point: "protects the failing dependency", terms: ["hammer", "protect", "overload", "api server"] },
    ],
  },
  {
    id: "04-max-of",
    notebook,
    section: S4,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "How are the per-key backoff and the token bucket combined, and what is a surprising consequence?",
    answer: `\`MaxOfRateLimiter\` asks **every** limiter and waits for the longest answer: a key waits at least its own backoff,
and at least what the shared bucket imposes. A single failing key is governed by its backoff; a crowd of keys
failing at once by the bucket.

The surprise: because every limiter is asked, each retry spends a bucket token even when the backoff is the longer
wait. A few keys failing over and over therefore drain the bucket, and other keys that fail for the first time
wait for it. Section 4's combination table shows both: one key's delays follow the backoff (5, 10, 20 ms...), and
the 150th of 150 keys waits 5.6 s because the six earlier failures of one key took tokens too.`,
    keyPoints: [
      { point: "the maximum of both delays", terms: ["max", "longest", "larger"] },
      { point: "single key: backoff decides; many keys: bucket decides", terms: ["single", "many", "crowd"] },
      { point: "every call spends a bucket token", terms: ["token", "spend", "every limiter"] },
    ],
  },
  {
    id: "04-give-up",
    notebook,
    section: S5,
    topic: "workqueue",
    difficulty: "advanced",
    question:
      "Should a controller stop retrying a key after N failures? What do sample-controller and controller-runtime do?",
    answer: `Some do: the classic client-go worker checks \`numRequeues(key)\` and, past a maximum (5 in some examples), calls
\`forget\` and drops the key, logging the error. controller-runtime keeps retrying with the capped backoff forever.
Dropping protects the controller from endless work on a hopeless object but loses the guarantee that the object
converges: it is not looked at again until an event or a resync re-adds it.

A reasonable rule: retry forever with a cap for errors that may heal (the network, a conflict, a dependency that
is down), and report (an Event, a status condition) rather than retry errors that will not heal without a human
(invalid spec). Section 5 shows a retry that heals after four 500s, with \`forget\` on success.`,
    keyPoints: [
      {
        point: "numRequeues and a maximum, then forget and drop",
        terms: ["numrequeues", "maximum", "drop", "give up"],
      },
      {
        point: "dropping loses convergence until an event or resync",
        terms: ["resync", "event", "converge", "lose"],
      },
      {
        point: "controller-runtime retries forever with a cap",
        terms: ["forever", "controller-runtime", "cap"],
      },
      {
        point: "report permanent errors instead of retrying",
        terms: ["status", "event", "condition", "permanent", "report"],
      },
    ],
  },
  {
    id: "04-requeue-kinds",
    notebook,
    section: S5,
    topic: "workqueue",
    difficulty: "intermediate",
    question: "When should a worker use `addRateLimited`, `addAfter` and plain `add`?",
    answer: `\`addRateLimited(key)\` after a **failure**: the delay grows with consecutive failures (and counts toward the shared
bucket), so a broken object backs off. \`addAfter(key, d)\` when the reconcile **succeeded** but must look again at a
known time: a certificate to renew, an external job to poll, a TTL; it does not count as a failure. Plain \`add\`
for "now": event handlers use it, and a worker rarely needs it.

Mixing them up has costs: polling with \`addRateLimited\` makes the poll interval grow exponentially; retrying
errors with a fixed \`addAfter\` hammers a broken dependency at a constant rate. Section 5 uses \`addRateLimited\` on
the injected 500s and \`forget\` once the write lands.`,
    keyPoints: [
      { point: "addRateLimited for failures (growing delay)", terms: ["failure", "error", "addratelimited"] },
      {
        point: "addAfter for a planned look later (polling, TTL)",
        terms: ["addafter", "poll", "later", "ttl", "planned"],
      },
      { point: "add for now (handlers)", terms: ["handler", "now", "plain add"] },
    ],
  },
  {
    id: "04-workers",
    notebook,
    section: S3,
    topic: "workqueue",
    difficulty: "intermediate",
    question:
      "Raising a controller's worker count from 1 to 10 did not make one slow object reconcile faster. Why?",
    answer: `Workers parallelise across **keys**, never within one: the queue hands a key to one worker at a time, and changes
that arrive meanwhile collapse into one more run after \`done\`. One slow object is still reconciled serially.
More workers help when many different keys wait (the queue's depth and its queue latency grow); they do not help
with one long reconcile, which is the reconcile's own problem (a slow external call: make it asynchronous and
requeue with \`addAfter\`).

More workers also multiply the load on the API server and on external systems. Section 3 shows four workers never
holding the same key together.`,
    keyPoints: [
      {
        point: "parallel across keys, serial per key",
        terms: ["across keys", "per key", "one worker", "serial"],
      },
      { point: "helps when many keys wait (depth, latency)", terms: ["depth", "many keys", "latency"] },
      {
        point: "slow reconcile: make it asynchronous and requeue",
        terms: ["async", "addafter", "requeue", "external"],
      },
    ],
  },
  {
    id: "04-fake-clock",
    notebook,
    section: S4,
    topic: "testing",
    difficulty: "basic",
    question: "How do you test a controller's retry behaviour when the delays go up to 1000 s?",
    answer: `Inject the clock. Every timer in the queue and the limiters goes through a \`Clock\` (client-go threads
\`k8s.io/utils/clock\` the same way); a test passes a \`FakeClock\` and moves time with \`advance\` or \`step\`, so a
1000 s backoff takes microseconds and the outcome is exact (no sleeps, no flaky timing margins). Assert the
delays (5, 10, 20 ms...) or that a key is not back before its time and is back after it.

The limit: a fake clock proves the logic, not the real-time behaviour under load (CPU starvation, a slow API);
those need a short run on the real clock, as section 5 does with the injected 500s. Section 4 runs the rate
limiters and the rate-limiting queue on \`FakeClock\`s.`,
    keyPoints: [
      {
        point: "inject a clock; use a fake one in tests",
        terms: ["inject", "fake clock", "fakeclock", "clock"],
      },
      { point: "advance time instead of sleeping", terms: ["advance", "step", "no sleep", "instant"] },
      { point: "exact and not flaky", terms: ["exact", "determin", "flaky"] },
    ],
  },
]);
