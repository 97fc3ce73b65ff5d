import { defineQuestions } from "../question.js";

const notebook = "02-reflector-and-cache";

/**
 * Questions for `notebooks/02-reflector-and-cache.ipynb`: client-go's Reflector (list, watch, resume, relist
 * after 410, bookmarks) and the Indexer and Lister it fills.
 */
export const reflectorAndCache02 = defineQuestions([
  {
    id: "02-reflector-job",
    notebook,
    section: "2. Build it small: a reflector into a Map",
    topic: "cache",
    difficulty: "basic",
    question: "What does a reflector do, and what does it guarantee about the store it fills?",
    answer: `It keeps a local store in step with one resource on the API server: a LIST replaces the store's content and
gives a resourceVersion; a WATCH from that version applies each ADDED, MODIFIED and DELETED event to the store and
moves the version on; a watch that ends is resumed from the last version; one that cannot be resumed (410) leads
to a new LIST.

The guarantee is **eventual consistency**: the store converges to the server's state and never goes backwards, but
it lags by the time an event takes to arrive, and nothing says *when* it has caught up with a given write.
Section 2 builds one in a few dozen lines and checks its Map against a fresh LIST after an update, a delete and a create.`,
    keyPoints: [
      {
        point: "LIST replaces, WATCH applies events in order",
        terms: ["list", "watch", "events", "replace"],
      },
      {
        point: "resume from the last resourceVersion, relist when that fails",
        terms: ["resume", "relist", "last resourceversion"],
      },
      {
        point: "eventually consistent: it lags, never goes backwards",
        terms: ["eventual", "lag", "stale", "behind"],
      },
    ],
  },
  {
    id: "02-rv-semantics",
    notebook,
    section: "3. The real one: Reflector and Indexer",
    topic: "cache",
    difficulty: "intermediate",
    question:
      'A LIST can ask for resourceVersion "0", "" or a specific value. What does each mean, and which does a reflector use when?',
    answer: `**"0"**: any version is fine; the server may answer from its watch cache, possibly a little stale, but cheap.
**""**: the most recent state, a consistent read. **A specific value N**: a state at least as new as N (the exact
semantics depend on \`resourceVersionMatch\`).

client-go's Reflector lists at "0" the first time (cheap, and the watch that follows catches up), then at its last
synced version whenever it relists, after a watch's 410 included (so it never goes backwards, and "not older than N"
needs none of the expired history), and at "" only when that LIST itself is refused: 410 Expired, or a version too
new for the server. Section 3's reflector does the same; section 5 shows its relist after a 410 in its report line.`,
    keyPoints: [
      {
        point: '"0": any version, from the cache, may be stale',
        terms: ['"0"', "any version", "stale", "cache"],
      },
      { point: '"": most recent, consistent', terms: ['""', "most recent", "consistent", "quorum"] },
      {
        point: "first list at 0, relist at last synced version, '' only if that LIST is refused",
        terms: ["first", "last synced", "refused", "fall back"],
      },
    ],
  },
  {
    id: "02-very-short-watch",
    notebook,
    section: "3. The real one: Reflector and Indexer",
    topic: "cache",
    difficulty: "advanced",
    question:
      "client-go's Reflector treats a watch that closes within a second without delivering any event as a failure. Why?",
    answer: `A clean end normally means "resume at once, no backoff". If the server (or a proxy in front of it) closes
every new watch immediately, that rule turns into a hot loop: thousands of WATCH requests a second from every
client, exactly when the server is already unwell. Counting a very short, empty watch as a failure sends the
reflector through its **backoff** and a relist instead, so a misbehaving server sees a few requests, spaced out.

The trade-off is a relist (and its LIST cost) in a rare case, against a retry storm in a bad one. Section 3 lists
this rule among what the package's Reflector adds to the tiny one of section 2, which would loop.`,
    keyPoints: [
      {
        point: "immediate resume would hot-loop if the server closes at once",
        terms: ["hot loop", "loop", "storm", "hammer"],
      },
      { point: "treat it as a failure: backoff", terms: ["backoff", "back off"] },
      {
        point: "protects an already unhealthy server",
        terms: ["unhealthy", "overload", "misbehav", "proxy"],
      },
    ],
  },
  {
    id: "02-dont-mutate",
    notebook,
    section: "3. The real one: Reflector and Indexer",
    topic: "cache",
    difficulty: "basic",
    question: "Why must a controller never modify an object it got from a lister?",
    answer: `The lister hands out the cache's **own** object, shared with every other reader in the process (other
controllers on the same shared informer, the informer's handlers). Changing it in place changes what everyone
reads: the cache no longer matches the server, the next event overwrites the change, and a controller may decide
on a state that never existed. client-go's rule is to DeepCopy before modifying; the Indexer here states the same
rule in its documentation.

The trade-off is deliberate: copying on every read would make the cache slow and memory hungry, so the copy is paid
only by the code that writes. Section 3 links the Indexer and Lister whose comments state this.`,
    keyPoints: [
      {
        point: "the lister returns the cache's shared object",
        terms: ["shared", "same object", "own object", "pointer"],
      },
      {
        point: "mutating corrupts what others read",
        terms: ["corrupt", "everyone", "others", "no longer match"],
      },
      { point: "deep copy before modifying", terms: ["deepcopy", "deep copy", "copy"] },
    ],
  },
  {
    id: "02-resume-cost",
    notebook,
    section: "4. Break it: a dropped watch is resumed, not relisted",
    topic: "cache",
    difficulty: "basic",
    question:
      "Section 4 dropped the reflector's watch in the middle of a stream of writes. What did that cost, and why was nothing missed?",
    answer: `One new WATCH request and nothing else: the reflector re-opened the watch **from its last resourceVersion**,
and the server replayed the events after it from its history, including the writes made while no watch was open.
No LIST was needed (the server answered none), and the cache matched the server afterwards.

That is the whole point of resuming rather than relisting: a drop costs O(changes missed), a relist O(all objects).
Watches end all the time (timeouts, load balancers, server restarts), so this is the common path, and it only works
while the server still has the history (section 5 shows what happens when it does not).`,
    keyPoints: [
      { point: "one new WATCH, no LIST", terms: ["one watch", "no list", "new watch"] },
      {
        point: "the server replays history after the last resourceVersion",
        terms: ["replay", "history", "last resourceversion"],
      },
      {
        point: "resume costs the changes missed; relist costs all objects",
        terms: ["all objects", "o(", "cheap", "missed"],
      },
    ],
  },
  {
    id: "02-410-gone",
    notebook,
    section: "5. Break it: 410 Gone, and the relist",
    topic: "cache",
    difficulty: "intermediate",
    question: "What does 410 Gone mean to a reflector, and what must it do next?",
    answer: `It means "the resourceVersion you want to resume from is older than the history I keep": etcd compacted it, or
the watch cache's window moved past it (reason \`Expired\`, "too old resource version"). The events in between are
gone, and a watch cannot be resumed; nothing in them can be recovered event by event.

So the reflector **relists**: a fresh LIST **replaces** the store, then it watches from the new list's version.
client-go lists at its last synced resourceVersion even here: a LIST at N means "a state not older than N" and needs
no history, so it is not refused just because the watch was; only if that LIST is refused too (410, or a version
too new) does it fall back to resourceVersion "". The cost is a full LIST, which is why resuming is preferred
and why bookmarks exist. Section 5 forces it with \`faults.compactHistory()\` and shows both reflectors relisting.`,
    keyPoints: [
      {
        point: "the requested resourceVersion is older than the kept history (compaction)",
        terms: ["compact", "too old", "history", "expired"],
      },
      { point: "the missed events cannot be replayed", terms: ["cannot", "lost", "gone"] },
      {
        point: "relist and replace the store, then watch from the new version",
        terms: ["relist", "replace", "list again"],
      },
    ],
  },
  {
    id: "02-relist-deletes",
    notebook,
    section: "5. Break it: 410 Gone, and the relist",
    topic: "cache",
    difficulty: "advanced",
    question:
      "An object is deleted while the reflector's watch is down, and the reflector comes back to a 410. How does the cache learn of the deletion, and what do event handlers see?",
    answer: `No DELETED event will ever arrive: it was in the history that expired. The deletion is only visible as an
**absence** from the new LIST, so the store must be **replaced** with the list, not merged into: any key not in
the list is dropped. A store that only upserts the listed items leaks the deleted object forever.

Handlers need to hear about it too: client-go's DeltaFIFO compares the new list with what it knew and queues a
Deleted delta for each missing key, carrying a \`DeletedFinalStateUnknown\` tombstone (the last state it saw, which
may be stale). Handlers must accept that type in their delete callback. Section 5 deletes cm-2 while the watch is
down and checks that both caches dropped it.`,
    keyPoints: [
      {
        point: "the deletion is only visible as absence from the new list",
        terms: ["absence", "missing", "not in the list"],
      },
      { point: "replace the store, do not merge", terms: ["replace", "not merge", "drop"] },
      {
        point: "handlers get a DeletedFinalStateUnknown tombstone",
        terms: ["deletedfinalstateunknown", "tombstone"],
      },
    ],
  },
  {
    id: "02-resync-vs-relist",
    notebook,
    section: "5. Break it: 410 Gone, and the relist",
    topic: "cache",
    difficulty: "intermediate",
    question: "What is the difference between an informer's resync and a reflector's relist?",
    answer: `A **relist** is a LIST request to the API server: it happens when the watch cannot be resumed (410, errors)
and it rebuilds the store from the server's state. It costs the server a full LIST.

A **resync** makes **no API call**: every resync period the informer re-delivers the objects already in its cache
to the handlers as updates, so that a controller re-reconciles everything it knows, healing whatever a missed or
mishandled event left behind (an external system that drifted, a bug). It costs only local work.

Section 5 shows the relist (the server's LIST counter moves); a resync would leave it still. Confusing the two
leads to resync periods that are far too short, in the belief that they refresh the cache.`,
    keyPoints: [
      {
        point: "relist: a LIST to the API server after a broken watch",
        terms: ["list request", "api call", "410", "server"],
      },
      {
        point: "resync: re-delivers cached objects to handlers, no API call",
        terms: ["no api call", "cached objects", "re-deliver", "local"],
      },
      {
        point: "resync heals missed handling; it does not refresh the cache",
        terms: ["heal", "drift", "not refresh", "safety net"],
      },
    ],
  },
  {
    id: "02-bookmarks",
    notebook,
    section: "6. Bookmarks: keeping a quiet watch fresh",
    topic: "cache",
    difficulty: "intermediate",
    question: "What are watch bookmarks, and what problem do they solve?",
    answer: `A BOOKMARK is a watch event that carries no object change, only a newer resourceVersion: "everything up to here
has been sent to you". A client opts in with \`allowWatchBookmarks=true\`; kube-apiserver sends one about every
minute, and before it ends a watch.

They solve the **quiet watcher** problem: a watch filtered to a namespace or label where nothing changes keeps an old
resourceVersion while the rest of the cluster moves the server's history on. When that watch drops, resuming from
the old version gets a 410 and forces a relist. With bookmarks the version stays recent and the resume succeeds.
Section 6 makes 400 writes elsewhere: the bookmarked reflector resumes, the tiny one without bookmarks relists.`,
    keyPoints: [
      {
        point: "an event with only a newer resourceVersion",
        terms: ["only a resourceversion", "newer resourceversion", "no object", "no change"],
      },
      { point: "opt in with allowWatchBookmarks", terms: ["allowwatchbookmarks", "opt in", "ask"] },
      {
        point: "keeps a quiet watch's version inside the history window: no 410 relist",
        terms: ["quiet", "window", "410", "relist"],
      },
    ],
  },
  {
    id: "02-custom-index",
    notebook,
    section: "7. A custom index",
    topic: "cache",
    difficulty: "basic",
    question: "What is an index in an informer's cache, and when would you add one?",
    answer: `An index function maps an object to zero or more values (its namespace, a label, its owner's UID, the node a
Pod runs on); the Indexer keeps, for each value, the set of keys of the objects that produce it. \`byIndex(name,
value)\` then returns those objects without scanning the whole cache.

Add one when a reconcile asks "which objects have property X?" often: the children of a parent (owner UID index),
the Pods on a node, every ConfigMap of a team. Without it each reconcile filters the whole cache, O(n) per call.
The price is memory and a little work on every add, update and delete. Section 7 adds a \`team\` index to the
running cache.`,
    keyPoints: [
      {
        point: "index function: object -> values; the index keeps value -> keys",
        terms: ["index function", "value", "keys"],
      },
      {
        point: "answers 'objects with property X' without scanning",
        terms: ["without scan", "o(n)", "filter", "scan"],
      },
      {
        point: "common: owner UID, node name, namespace, label",
        terms: ["owner", "node", "namespace", "label"],
      },
    ],
  },
  {
    id: "02-index-on-update",
    notebook,
    section: "7. A custom index",
    topic: "cache",
    difficulty: "intermediate",
    question:
      "An object's label changes from team b to team c. What must the Indexer do on that update so the team index stays right?",
    answer: `Compute the index values of the **old** object and of the **new** one, remove the key from every old value that
the new one no longer has (b), add it under every new value (c), and drop value sets that become empty. Indexing
only the new object would leave the key under b as well: \`byIndex("team", "b")\` would keep returning an object that
left the team, a stale answer that no resync will fix.

This is why an index is the Indexer's job and not something a handler maintains on the side: the Indexer sees the
old and new state atomically on every update. Section 7 moves cm-4 from b to c and checks both counts.`,
    keyPoints: [
      { point: "remove the key from the old object's values", terms: ["old", "remove"] },
      { point: "add it under the new values", terms: ["new value", "add"] },
      { point: "otherwise the index returns stale members", terms: ["stale", "still returns", "wrong"] },
    ],
  },
  {
    id: "02-lister-vs-get",
    notebook,
    section: "8. Reads from the cache against live GETs",
    topic: "cache",
    difficulty: "basic",
    question:
      "Why do controllers read from a lister instead of calling GET on the API server, and what is the catch?",
    answer: `A lister read is a map lookup: no network, no serialization, no load on the API server. Section 8 measures a
reconcile that reads from the lister and an index at orders of magnitude more per second than one that does a
GET and a LIST, and the server counts zero requests for it. Reconciles happen on every event and every resync, for
every object: reading live would turn each into API load.

The catch is **staleness**: the cache lags the server, so a reconcile may act on an old state, or not yet see an
object it just created. Controllers live with it: writes carry the resourceVersion they read (a stale write gets a
409 and is retried), and the next event triggers another reconcile.`,
    keyPoints: [
      { point: "a local read: no request, much faster", terms: ["local", "memory", "no request", "faster"] },
      {
        point: "reconciles are frequent: live reads become API load",
        terms: ["load", "every event", "frequent"],
      },
      { point: "the catch: the cache may be stale", terms: ["stale", "lag"] },
      {
        point: "conflicts (409) and requeues correct stale decisions",
        terms: ["409", "conflict", "requeue"],
      },
    ],
  },
  {
    id: "02-cache-memory",
    notebook,
    section: "8. Reads from the cache against live GETs",
    topic: "cache",
    difficulty: "intermediate",
    question: "What does an informer's cache cost in memory, and how can you make it smaller?",
    answer: `It holds **every object** the informer watches, fully decoded, for as long as the process runs: with a
cluster-wide Pod informer that is every Pod in the cluster, managedFields included. Section 8 measures the JSON
size of the cached objects and scales it to 100,000 objects; decoded objects take more than their JSON.

To shrink it: **scope** the informer (one namespace, a label or field selector), **strip** what you never read
before it is stored (client-go's transform function, commonly dropping managedFields), use a **metadata-only**
informer when you only need names, labels and owners, and **share** one informer per resource in the process
(notebook 03) instead of one per controller.`,
    keyPoints: [
      {
        point: "every watched object, decoded, in memory",
        terms: ["every object", "all objects", "in memory"],
      },
      { point: "scope by namespace or selector", terms: ["namespace", "selector", "scope"] },
      {
        point: "transform / strip managedFields, metadata-only informers",
        terms: ["transform", "managedfields", "metadata-only", "strip"],
      },
      { point: "share one informer per resource", terms: ["share", "shared informer"] },
    ],
  },
  {
    id: "02-read-your-write",
    notebook,
    section: "8. Reads from the cache against live GETs",
    topic: "cache",
    difficulty: "advanced",
    question:
      "Your reconcile creates a child object, and the next reconcile, a few milliseconds later, does not find it in the cache and creates it again. What is happening, and how do controllers avoid it?",
    answer: `The cache has not seen the watch event for the create yet: the reflector applies it when it arrives, so a
read right after your own write can miss it (no read-your-writes guarantee). Creating again is a duplicate.

Defences, in order of preference: **deterministic names** (derive the child's name from the parent, so the second
create fails with 409 AlreadyExists instead of duplicating); **expectations** (remember "I created X, wait until the
cache shows it", as the ReplicaSet controller does); or a **requeue** after a short delay when the cache looks
inconsistent. Never "fix" it with a live LIST on every reconcile (notebook 01). Section 8 measured the lag's cause:
the cache is a copy, kept current only by events.`,
    keyPoints: [
      {
        point: "the cache lags your own write: no read-your-writes",
        terms: ["lag", "not seen", "read-your-writes", "stale"],
      },
      {
        point: "deterministic names: AlreadyExists instead of a duplicate",
        terms: ["deterministic", "alreadyexists", "409"],
      },
      { point: "expectations", terms: ["expectation"] },
      { point: "requeue", terms: ["requeue"] },
    ],
  },
]);
