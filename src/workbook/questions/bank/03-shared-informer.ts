import { defineQuestions } from "../question.js";

const notebook = "03-shared-informer";
const S1 = "1. The problem: one informer per controller";
const S2 = "2. Build it small: one cache, a buffer per handler";
const S3 = "3. The real one: `SharedInformerFactory`";
const S4 = "4. A handler registered late gets the cache replayed";
const S5 = "5. A slow handler does not delay the others";
const S6 = "6. Resync re-delivers every object";
const S7 = "7. Break it: the watch drops";

/**
 * Questions for `notebooks/03-shared-informer.ipynb`: one shared informer per resource per process, its
 * per-handler buffers, late replay and resync (client-go's `SharedInformerFactory` and `sharedIndexInformer`).
 */
export const sharedInformer03 = defineQuestions([
  {
    id: "03-why-share",
    notebook,
    section: S1,
    topic: "informer",
    difficulty: "basic",
    question: "Why does client-go run one informer per resource per process, instead of one per controller?",
    answer: `Because every informer is a full client of the API server: one LIST to fill its cache, one long WATCH to keep it
current, and a copy of every object in memory. Controllers in one process that care about the same resource want
the same stream, so paying for it once is enough. Section 1 measured three private informers (three LISTs, three
WATCHes, every object cached three times, every update sent three times) and section 3 one shared informer (one of
each, one cache).

The trade-off: a shared informer has one scope (namespace, selectors) and one resync check period, so a controller
that needs a different scope gets a separate informer, and handlers must share the cache read-only.`,
    keyPoints: [
      { point: "each informer costs a LIST, a WATCH and a cache", terms: ["list", "watch", "cache"] },
      {
        point: "the server load multiplies by the number of informers",
        terms: ["three", "multipl", "load", "per controller"],
      },
      { point: "memory: one copy of every object per informer", terms: ["memory", "copy", "copies"] },
      { point: "one informer, many handlers", terms: ["handler", "fan-out", "fan out", "share"] },
    ],
  },
  {
    id: "03-private-cost",
    notebook,
    section: S1,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Ten controllers in one binary each start their own ConfigMap informer on a cluster with 50,000 ConfigMaps. What happens at start-up and afterwards?",
    answer: `At start-up the API server answers ten LISTs of 50,000 objects (the most expensive request it serves), and the
process decodes and stores ten copies of them: memory grows tenfold. Afterwards every ConfigMap change is encoded
and sent down ten watch streams, and each copy is kept in sync separately. A restart of the binary repeats the
ten LISTs, which is how a rollout can hurt a large cluster.

With a shared factory it is one LIST, one watch, one cache, and ten handlers. Section 1 measured the same effect
at small scale (three informers: three LISTs, three WATCHes, 90 cached objects for 30 ConfigMaps), section 3 the
shared version. If the controllers need different subsets, scoping each informer by namespace or label selector
costs less than ten full copies.`,
    keyPoints: [
      { point: "N full LISTs at start (expensive for the server)", terms: ["list", "start"] },
      { point: "N copies in memory", terms: ["memory", "copies", "tenfold"] },
      { point: "every change sent N times", terms: ["every change", "ten watch", "sent", "stream"] },
      { point: "a shared factory makes it one of each", terms: ["factory", "shared"] },
    ],
  },
  {
    id: "03-handler-buffer",
    notebook,
    section: S2,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Why does a shared informer give each handler its own buffer and delivery loop, instead of calling the handlers one after the other?",
    answer: `Because handlers are independent code with independent speeds. Called in turn, the slowest handler would set the
pace for everyone behind it, and for the informer itself: while it waited, the cache would stop being updated and
every controller would read older state. With a buffer per handler (client-go's \`processorListener\`), the
informer only appends to each buffer and moves on; each handler drains its own buffer in order.

The cost is memory: a buffer is unbounded, so a stuck handler grows it without limit. Section 2 builds this in
forty lines (\`MiniFanOut\`) and shows the fast handler done long before the slow one; section 5 shows the same
with the real informer.`,
    keyPoints: [
      { point: "a slow handler would delay everyone behind it", terms: ["slow", "delay", "hold up", "pace"] },
      { point: "the cache would stop updating too", terms: ["cache", "informer itself", "stall"] },
      {
        point: "per-handler buffer, drained in order by its own loop",
        terms: ["buffer", "own loop", "processorlistener", "in order"],
      },
      { point: "cost: unbounded buffer memory", terms: ["unbounded", "memory", "grow"] },
    ],
  },
  {
    id: "03-handler-must-not-block",
    notebook,
    section: S5,
    topic: "informer",
    difficulty: "basic",
    question: "What must an event handler never do, and what should it do instead?",
    answer: `It must never **block**: no network calls, no waiting on locks, no reconciling inline. A blocking handler does not
stop the other handlers (each has its own buffer) but its own buffer grows with every event while it waits, and
the controller behind it acts on ever older news. In client-go a panicking handler can also crash the process.

What it should do: compute the object's key (\`namespace/name\`), put it on a workqueue, and return. The worker
reads the latest state from the cache when it gets to the key. Section 5 shows a 40 ms handler falling hundreds of
milliseconds behind while two fast handlers stay within milliseconds of each write.`,
    keyPoints: [
      {
        point: "never block (no API calls, locks or long work)",
        terms: ["block", "network", "api call", "long"],
      },
      {
        point: "its own buffer grows and it acts on old news",
        terms: ["buffer", "grow", "old", "stale", "behind"],
      },
      { point: "enqueue a key and return", terms: ["key", "queue", "enqueue", "workqueue"] },
    ],
  },
  {
    id: "03-slow-handler-cost",
    notebook,
    section: S5,
    topic: "informer",
    difficulty: "advanced",
    question:
      "If a slow handler does not delay the other handlers, why is it still a problem? How would you notice it in production?",
    answer: `Three costs remain. Its buffer holds every notification it has not handled, so memory grows with the event rate
times the lag, without bound. Its controller reacts late: the notification it handles now may describe an object
that has changed several times since (a handler should therefore read the latest state, not trust the event).
And \`hasSynced\` for its registration stays false until it has worked through the initial list, so a controller
that waits for sync starts late.

You would notice it as growing memory, as a long delay between an object's change and the controller's action,
and (when the handler enqueues into a workqueue) as queue latency. Section 5 measured it: the slow handler's
latency grew with the burst and its buffer was several notifications deep in the live picture.`,
    keyPoints: [
      { point: "unbounded buffer, growing memory", terms: ["memory", "buffer", "unbounded"] },
      { point: "late reactions to stale events", terms: ["late", "stale", "lag", "old"] },
      { point: "its hasSynced turns true late", terms: ["hassynced", "sync"] },
      { point: "observed via latency or memory metrics", terms: ["metric", "latency", "monitor"] },
    ],
  },
  {
    id: "03-late-handler",
    notebook,
    section: S4,
    topic: "informer",
    difficulty: "basic",
    question:
      "A controller registers its handler on an informer that synced a minute ago. What does the handler receive first, and why?",
    answer: `Every object already in the cache, each as an add (with \`isInInitialList = true\`), then the live events from
then on. The informer takes a snapshot of its cache while no delta is being processed, so the new handler starts
from the same picture as the handlers that were there from the beginning, with nothing missed and nothing
duplicated between the snapshot and the live events.

Without the replay a late controller would only learn about objects when they next change, which for most objects
is never. Section 4 registers a handler after sync and counts one initial add per cached object.`,
    keyPoints: [
      { point: "the whole cache is replayed as adds", terms: ["replay", "every object", "cache", "add"] },
      { point: "marked as part of the initial list", terms: ["initial", "isininitiallist"] },
      { point: "then live events, no gap", terms: ["live", "then", "no gap", "nothing missed"] },
      { point: "otherwise unchanged objects would never be seen", terms: ["never", "miss", "next change"] },
    ],
  },
  {
    id: "03-registration-synced",
    notebook,
    section: S4,
    topic: "informer",
    difficulty: "advanced",
    question:
      "`informer.hasSynced()` is true, yet a freshly registered handler's `registration.hasSynced()` is false. Why are there two, and which should a controller wait for?",
    answer: `\`informer.hasSynced()\` says the **cache** holds the first LIST. A registration's \`hasSynced()\` says **this handler**
has also processed its initial adds, which for a late or slow handler happens later: they are still in its buffer.
A controller that starts workers as soon as the cache is synced is fine for reads, but if it relies on its handler
having enqueued every existing object (to reconcile them all once), it must wait for its registration.

client-go added the per-registration \`HasSynced\` for exactly this gap. Section 4 waits on the late handler's
registration before counting its adds.`,
    keyPoints: [
      { point: "informer synced = the cache has the first list", terms: ["cache", "first list", "list"] },
      {
        point: "registration synced = this handler processed its initial adds",
        terms: ["this handler", "processed", "initial"],
      },
      { point: "wait for the registration when the handler's adds matter", terms: ["wait", "registration"] },
    ],
  },
  {
    id: "03-factory-key",
    notebook,
    section: S3,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "Two controllers ask a SharedInformerFactory for a ConfigMap informer, one with a label selector. Do they share it?",
    answer: `No. The factory keys informers by resource **and scope** (namespace, label and field selectors): the same resource
with the same scope returns the same informer, a different selector is a different LIST+WATCH with its own cache.
That is correct (the selector changes what the server sends) but easy to miss: a small difference in options
silently doubles the cost. In client-go the factory's options (\`WithNamespace\`, \`WithTweakListOptions\`) apply to all
its informers, and a second factory means second informers.

Section 3 shows three \`informerFor\` calls with the same scope returning one informer; the third try-it prompt asks
what a label selector changes.`,
    keyPoints: [
      { point: "keyed by resource and scope", terms: ["scope", "resource and", "key"] },
      {
        point: "different selector: separate informer and watch",
        terms: ["separate", "different", "second", "another"],
      },
      { point: "accidental duplication costs double", terms: ["cost", "double", "silently"] },
    ],
  },
  {
    id: "03-cache-read-only",
    notebook,
    section: S3,
    topic: "cache",
    difficulty: "intermediate",
    question: "Why must a handler or a controller never modify an object it got from a shared informer?",
    answer: `Because it is not a copy: it is the very object in the shared cache, and every other handler and lister of that
informer sees the change. Another controller would then read a state that the API server never had, and a later
update built from it could write someone else's half-made change. The cache would also disagree with the server
until the next event for that object replaced it.

The rule in client-go is "deep-copy before you modify". One shared cache (section 3) is what makes the informer
cheap; read-only use is the price of sharing.`,
    keyPoints: [
      {
        point: "it is the shared cached object, not a copy",
        terms: ["shared", "same object", "not a copy", "reference"],
      },
      {
        point: "others would see a state the server never had",
        terms: ["other", "server never", "corrupt", "inconsistent"],
      },
      { point: "deep-copy before modifying", terms: ["deep", "copy", "clone"] },
    ],
  },
  {
    id: "03-resync-what",
    notebook,
    section: S6,
    topic: "reconcile",
    difficulty: "intermediate",
    question: "What is an informer's resync for, and what does it cost?",
    answer: `A resync re-delivers every cached object to the handlers as \`onUpdate(obj, obj)\`, once per period, so the
controller looks at every object again even when nothing in the cluster changed. It is a safety net for what
events cannot tell you: a key the controller dropped after an error, state outside the cluster (a cloud resource
someone deleted) that drifted from the desired state.

It costs work, not requests: every period, every object becomes a reconcile (N objects, N reconciles; section 6
counted one delivery per object per period). For controllers whose work is fully described by the cluster, it is
often off (period 0) or long; controllers that manage external state keep it.`,
    keyPoints: [
      {
        point: "re-delivers every cached object periodically",
        terms: ["every object", "periodic", "again", "re-deliver"],
      },
      {
        point: "a safety net for missed work and outside drift",
        terms: ["safety net", "drift", "missed", "external"],
      },
      { point: "costs reconciles, not API requests", terms: ["reconcile", "work", "not request", "cost"] },
    ],
  },
  {
    id: "03-resync-not-relist",
    notebook,
    section: S6,
    topic: "watch",
    difficulty: "intermediate",
    question:
      "Is a resync the same as a relist? What does each one ask of the API server, and when does each happen?",
    answer: `No. A **relist** is a new LIST request to the API server: the reflector does it when its watch cannot resume (410
Gone after compaction, or an error), and it replaces the cache with the server's current state, emitting the
differences (including deletes it missed, as tombstones). A **resync** asks the server for nothing: on a timer it
takes the objects already in the cache and hands them to the handlers again.

So a relist repairs the cache; a resync only repeats what the cache already says to the controllers. Section 6
counted zero LIST requests during three resync periods while every object was delivered three times.`,
    keyPoints: [
      { point: "a relist is a new LIST to the server", terms: ["list request", "new list", "server"] },
      { point: "relist happens after 410 or watch failure", terms: ["410", "gone", "error", "expired"] },
      { point: "resync replays the cache, no request", terms: ["cache", "no request", "nothing", "replay"] },
      {
        point: "relist repairs the cache, resync re-triggers reconciles",
        terms: ["repair", "re-trigger", "reconcile"],
      },
    ],
  },
  {
    id: "03-same-rv-update",
    notebook,
    section: S6,
    topic: "informer",
    difficulty: "advanced",
    question:
      "Your `onUpdate` gets old and new objects with the same resourceVersion. What happened, and should the handler ignore it?",
    answer: `It is a resync (or an unchanged object re-delivered by a relist): nothing changed on the server. sample-controller
skips such updates, which is right when the controller's work is fully determined by the object and it handled the
last real change. But skipping them throws away the safety net: if an earlier reconcile of that key failed and was
dropped, or the controller manages something outside the cluster, the resync is the only thing that would bring
the key back.

So: skip them only when nothing outside the object can drift and no failed key is ever dropped; otherwise enqueue the key like any update (the workqueue dedups it, so it
costs one reconcile). Section 6 counts these same-version updates.`,
    keyPoints: [
      {
        point: "same resourceVersion means a resync, not a change",
        terms: ["resync", "nothing changed", "unchanged"],
      },
      { point: "skipping is fine when nothing outside can drift", terms: ["skip", "ignore"] },
      { point: "skipping loses the safety net", terms: ["safety net", "dropped", "drift", "lose"] },
      { point: "enqueuing is cheap thanks to dedup", terms: ["dedup", "enqueue", "queue"] },
    ],
  },
  {
    id: "03-dropped-watch",
    notebook,
    section: S7,
    topic: "watch",
    difficulty: "intermediate",
    question:
      "The API server restarts and the shared informer's watch ends. What do the three controllers' handlers notice?",
    answer: `Usually nothing but a pause. The shared informer's reflector opens a new watch from the last resourceVersion it saw,
so the events that happened in between arrive on the new stream and no LIST is needed; all handlers keep receiving
through the one informer. Only if the server no longer has that resourceVersion (410 Gone) does the reflector
relist, and then the handlers get the differences: updates, and deletes as tombstones.

Because there is one informer, there is one reconnect instead of three. Section 7 drops every watch with
\`faults.dropWatches()\`: the informer's watch count goes up by one, its list count stays, and all three controllers
see the next update.`,
    keyPoints: [
      {
        point: "the reflector re-watches from the last resourceVersion",
        terms: ["resourceversion", "re-watch", "rewatch", "resume"],
      },
      { point: "no relist unless 410 Gone", terms: ["410", "no relist", "no list"] },
      {
        point: "handlers keep receiving, one reconnect for all",
        terms: ["one reconnect", "all handlers", "keep receiving", "shared"],
      },
    ],
  },
  {
    id: "03-cache-memory",
    notebook,
    section: S3,
    topic: "cache",
    difficulty: "advanced",
    question: "An informer's cache is too big for your controller's memory limit. What can you do?",
    answer: `Cache less. Scope the informer (a namespace, a label selector) so the server sends only the objects the controller
owns. Strip what you never read before it is cached with a transform (\`setTransform\`: drop \`managedFields\`,
large annotations). Watch metadata only (a metadata informer) when the controller needs names, labels and owners
but not spec or data. And make sure the process has one informer per resource, not one per controller (section 1
measured the copies).

Each has a price: a scoped informer cannot see objects outside its scope, a transform must be idempotent and
must not drop fields a handler needs, and a metadata-only cache needs a GET for the full object.`,
    keyPoints: [
      { point: "scope by namespace or selector", terms: ["namespace", "selector", "scope"] },
      { point: "transform to strip fields (managedFields)", terms: ["transform", "managedfields", "strip"] },
      { point: "metadata-only informers", terms: ["metadata"] },
      { point: "one shared informer instead of copies", terms: ["shared", "one informer", "copies"] },
    ],
  },
]);
