import { defineQuestions } from "../question.js";

const notebook = "01-watch-vs-poll";

/**
 * Questions for `notebooks/01-watch-vs-poll.ipynb`: why a controller lists once and then watches (client-go's
 * ListWatch and Reflector), instead of polling with a LIST every period.
 */
export const watchVsPoll01 = defineQuestions([
  {
    id: "01-poll-cost",
    notebook,
    section: "2. The problem first: a poller",
    topic: "watch",
    difficulty: "basic",
    question:
      "A controller finds changes by listing every ConfigMap in the cluster every 10 seconds. What does that cost the API server?",
    answer: `Every period it asks for **every object, changed or not**: the server reads them all (from its watch cache
or etcd), serializes them and sends them, and the client decodes them all, only to find that most did not change.
The cost is proportional to the number of objects times the number of polls, and it is paid on a quiet cluster as
much as on a busy one.

The trade-off is delay against load: a shorter period notices changes sooner and multiplies the LISTs. Section 2
builds this poller; section 4 counts its LISTs and bytes next to a watcher's single LIST and stream.`,
    keyPoints: [
      {
        point: "every poll transfers every object, changed or not",
        terms: ["every object", "all objects", "whole list", "changed or not"],
      },
      {
        point: "cost = objects x polls, even when nothing changes",
        terms: ["quiet", "nothing changes", "proportional", "objects times"],
      },
      { point: "shorter period: less delay, more load", terms: ["period", "delay", "latency"] },
    ],
  },
  {
    id: "01-list-then-watch",
    notebook,
    section: "3. Build it small: a watcher",
    topic: "watch",
    difficulty: "basic",
    question: "Why does an informer start with a LIST and then open a WATCH, instead of only watching?",
    answer: `A watch only reports **changes**: it cannot tell you what already exists. The LIST gives the complete state
at one resourceVersion; the WATCH, opened from that resourceVersion, gives every change after it, in order. Together
they are a consistent snapshot plus a stream: nothing missed, nothing seen twice.

(A watch from resourceVersion "" or "0" does send the current objects first, as synthetic ADDED events; newer
clients use that "watch-list" mode to skip the LIST. The idea is the same: a starting state, then the changes.)
Section 3's watcher does exactly this: one LIST, remember its resourceVersion, WATCH from it.`,
    keyPoints: [
      {
        point: "a watch only delivers changes, not the existing state",
        terms: ["only changes", "existing", "current state", "what exists"],
      },
      {
        point: "the list gives a consistent snapshot at a resourceVersion",
        terms: ["snapshot", "resourceversion", "consistent"],
      },
      {
        point: "watching from that version misses nothing and repeats nothing",
        terms: ["miss", "twice", "duplicate", "gap"],
      },
    ],
  },
  {
    id: "01-watch-from-list-rv",
    notebook,
    section: "3. Build it small: a watcher",
    topic: "watch",
    difficulty: "intermediate",
    question:
      "The watcher opens its WATCH with the LIST's resourceVersion. What goes wrong if it uses no resourceVersion, or the newest item's?",
    answer: `With **no resourceVersion** the server first sends the whole current state as synthetic ADDED events, then the
changes from "now". The client ends up with the current state, processed twice, but what happened between the LIST
and the moment the watch opened is lost: the intermediate versions and, above all, the deletions (an object deleted
in that gap is simply absent from the ADDED burst, and no DELETED ever comes). With the **newest item's resourceVersion** the watch starts too early: the list was read at a
later version than its newest item changed (a deletion, for one, leaves no item behind), so the changes in between,
already in the list, are replayed and seen twice.

The list's own resourceVersion is the one version that means "everything up to here is in the list". Section 3's
watcher keeps it in \`lastResourceVersion\`, and then the version of each event it handles.`,
    keyPoints: [
      {
        point:
          "no resourceVersion: synthetic ADDED of the current state; the gap's deletions and versions are lost",
        terms: ["synthetic", "gap", "added", "deletion"],
      },
      {
        point: "the list's resourceVersion marks exactly what the list contains",
        terms: ["list's resourceversion", "list resourceversion", "everything up to"],
      },
      {
        point: "deletions leave no item, so an item's version is not the list's",
        terms: ["delet", "no item"],
      },
    ],
  },
  {
    id: "01-poll-latency",
    notebook,
    section: "4. Side by side: the same writes, two observers",
    topic: "watch",
    difficulty: "basic",
    question: "How long does a poller take to notice a write, and why can't you make that short for free?",
    answer: `A write waits until the next LIST: anywhere from zero to one whole period, about half a period on average.
Section 4 draws it: the poller's latency line is a saw tooth between 0 and the period, while the watcher's stays
near zero because the server sends the event as soon as the write commits.

To halve the delay you must halve the period, which doubles the LISTs and their bytes: latency and load are tied
together. A watch breaks that tie: its delay is the time for one event to cross the wire, and its cost follows the
number of changes, not the clock.`,
    keyPoints: [
      { point: "delay up to one period, about half on average", terms: ["half", "period", "saw"] },
      {
        point: "a shorter period means proportionally more LISTs",
        terms: ["more lists", "doubles", "more requests", "proportional"],
      },
      {
        point: "a watch is notified as the write commits",
        terms: ["commit", "immediately", "pushed", "near zero"],
      },
    ],
  },
  {
    id: "01-missed-versions",
    notebook,
    section: "4. Side by side: the same writes, two observers",
    topic: "watch",
    difficulty: "intermediate",
    question:
      "In section 4 the poller saw fewer versions than there were writes. Is that a bug? Why does a well-written controller not care?",
    answer: `It is what polling is: an object changed twice between two LISTs shows only its second state. The watcher saw
every version because the server sends one event per change.

A well-written controller is **level-triggered**: it compares the desired state with the current state and acts on
the difference, so an intermediate version it never saw changes nothing. That is also why informers can collapse
several updates into one reconcile (notebook 04). What a poller cannot give is *promptness* and a cheap way to know
that *nothing* changed; what it does not lose is the final state. The table in section 4 counts the versions
each observer saw.`,
    keyPoints: [
      {
        point: "two changes between polls show as one",
        terms: ["between", "intermediate", "second state", "coalesc"],
      },
      {
        point: "controllers are level-triggered: they act on current state, not on each change",
        terms: ["level", "current state", "desired"],
      },
      {
        point: "the final state is not lost, only intermediate ones",
        terms: ["final", "latest", "last state"],
      },
    ],
  },
  {
    id: "01-scale-dimensions",
    notebook,
    section: "5. Scale it: N controllers x M objects x change rate",
    topic: "watch",
    difficulty: "intermediate",
    question:
      "How do the costs of polling and of watching grow with the number of controllers N, of objects M and the change rate R?",
    answer: `Polling sends every object on every period to every controller: **N x M / period**, independent of R.
Watching sends each change once to every watcher, plus one LIST per controller at start: **N x R**, independent of M
once started. Section 5 measures both along each dimension: poll bytes follow M and N, stay flat when R changes;
watch bytes follow R and N, stay flat when M grows.

So the two answer different questions. In a big, mostly quiet cluster (large M, small R), which is the usual case,
watching wins by orders of magnitude. The one-time LIST is still proportional to M, which is why restarts and
relists of many controllers at once are what hurts an API server.`,
    keyPoints: [
      {
        point: "poll cost grows with N x M / period, not with the change rate",
        terms: ["n x m", "objects", "period"],
      },
      {
        point: "watch cost grows with N x R, not with the number of objects",
        terms: ["n x r", "change rate", "changes"],
      },
      {
        point: "the initial LIST is proportional to M: mass relists hurt",
        terms: ["initial list", "relist", "restart"],
      },
    ],
  },
  {
    id: "01-watch-price",
    notebook,
    section: "6. Why a watch scales and polling does not",
    topic: "watch",
    difficulty: "intermediate",
    question: "A watch sends few bytes. What does it cost the API server instead?",
    answer: `A **long-running request per watch**, held for minutes (kube-apiserver ends each after a timeout of several
minutes and the client reopens it), with a goroutine and a buffer per watcher, and the work of **fanning out** every
change to every interested watcher. Over HTTP/2, which client-go speaks to kube-apiserver, a watch is one stream on a
connection shared with the client's other requests, not a connection of its own; over HTTP/1.1 (client-node) each
watch does hold its own connection. kube-apiserver keeps a watch cache per resource so that each change is read from etcd
once and serialized once, however many watchers receive it.

The trade-off: memory and connections on the server instead of repeated full reads. That is why one process should
hold **one** watch per resource and share it among its controllers (notebook 03), and why section 4's bar chart
shows one long-running WATCH next to the poller's many LISTs.`,
    keyPoints: [
      {
        point: "a long-running request (an HTTP/2 stream) per watcher",
        terms: ["long-running", "stream", "open", "long-lived"],
      },
      { point: "fan-out of every change to every watcher", terms: ["fan", "every watcher", "each watcher"] },
      { point: "share one watch per resource per process", terms: ["share", "shared informer", "one watch"] },
    ],
  },
  {
    id: "01-relist-every-reconcile",
    notebook,
    section: "6. Why a watch scales and polling does not",
    topic: "watch",
    difficulty: "intermediate",
    question:
      "Why shouldn't a controller re-list the objects it needs at the start of every reconcile, to be sure it sees fresh state?",
    answer: `Because that is polling in disguise, and it scales worse: reconciles happen per event, so the LISTs now grow
with N x R x M. Section 5 shows what a LIST costs as M grows; a reconcile that lists would pay that on every event.
Many controllers doing it together is a classic way to overload an API server.

Fresh state is also not what it buys: the list is stale the moment it returns. A controller reads its informer's
cache (kept current by one watch), acts, and relies on optimistic concurrency (a 409 Conflict on a stale write) and
on the next event or requeue to correct itself. Notebook 02 builds that cache.`,
    keyPoints: [
      {
        point: "a LIST per reconcile is polling: cost grows with events x objects",
        terms: ["polling", "per event", "every reconcile", "x m"],
      },
      { point: "read from the informer's cache instead", terms: ["cache", "informer", "lister"] },
      {
        point: "staleness is handled by optimistic concurrency and requeue",
        terms: ["409", "conflict", "optimistic", "requeue"],
      },
    ],
  },
  {
    id: "01-watch-ends",
    notebook,
    section: "7. Break it: drop the watch",
    topic: "watch",
    difficulty: "basic",
    question: "Your watch stream ended without an error. Why do watches end, and what should the client do?",
    answer: `Watches are meant to end: kube-apiserver closes each one after a timeout (client-go asks for a random 5 to 10
minutes, so that clients do not all reconnect at once), and load balancers, proxies and server restarts cut them
too. A clean end is not a failure.

The client opens a new watch **from the last resourceVersion it processed**: the server replays what happened since,
so nothing is missed and no LIST is needed. Section 7 drops the watch in the middle of a stream of writes and checks
exactly that: one more WATCH, no new LIST, every write seen.`,
    keyPoints: [
      {
        point: "watches end by design (server timeout, proxies, restarts)",
        terms: ["timeout", "load balancer", "restart", "by design"],
      },
      {
        point: "re-watch from the last resourceVersion seen",
        terms: ["last resourceversion", "resume", "re-watch", "rewatch"],
      },
      { point: "no relist needed after a clean end", terms: ["no list", "no relist", "without a list"] },
    ],
  },
  {
    id: "01-resume-limits",
    notebook,
    section: "7. Break it: drop the watch",
    topic: "watch",
    difficulty: "advanced",
    question:
      "Resuming a watch from the last resourceVersion avoids a LIST. When does it not work, and what does the server answer then?",
    answer: `The server can only replay changes it still remembers. kube-apiserver's watch cache keeps a bounded window of
recent events, and etcd compacts its history (every 5 minutes by default). A client that comes back with a
resourceVersion older than that window gets **410 Gone** (reason \`Expired\`, "too old resource version"): the
changes in between are lost to it, so it must LIST again to get a complete state, then watch from the new list.

Section 7's resume works because the gap is short. Notebook 02 forces the 410 with the embedded server's compaction
and lets the package's Reflector relist. Bookmarks exist to keep a quiet watcher's resourceVersion recent, so that a
resume stays inside the window.`,
    keyPoints: [
      {
        point: "history is bounded: watch cache window, etcd compaction",
        terms: ["window", "compact", "history"],
      },
      {
        point: "too old a resourceVersion: 410 Gone / Expired",
        terms: ["410", "gone", "expired", "too old"],
      },
      { point: "then a full relist is the only way back", terms: ["relist", "list again"] },
      { point: "bookmarks keep the resourceVersion fresh", terms: ["bookmark"] },
    ],
  },
  {
    id: "01-watch-cache",
    notebook,
    section: "6. Why a watch scales and polling does not",
    topic: "watch",
    difficulty: "advanced",
    question:
      'What is kube-apiserver\'s watch cache, and how does it change the cost of a LIST with resourceVersion="0" compared to resourceVersion=""?',
    answer: `The watch cache is kube-apiserver's in-memory copy of each resource, kept current by one etcd watch per
resource. It serves watches (each change decoded once, fanned out to every watcher) and, with resourceVersion="0",
LISTs: "any version is fine" lets the server answer from memory, without touching etcd. resourceVersion="" asks
for the **most recent** state, a quorum read (newer versions serve it from the cache too, after checking it is
current with etcd).

The trade-off is freshness against load: "0" may be slightly stale but is cheap, which is why informers start with
it. Section 6's point that the server pays per change, not per object, holds because of this cache: the embedded
server here keeps one too (src/control-plane/apiserver/storage/watch-cache.ts).`,
    keyPoints: [
      {
        point: "an in-memory copy per resource fed by one etcd watch",
        terms: ["in-memory", "memory", "one etcd watch", "copy"],
      },
      {
        point: "rv=0 may be served from the cache (possibly stale)",
        terms: ["stale", "any version", "from the cache", '"0"'],
      },
      { point: 'rv="" is a consistent, most-recent read', terms: ["most recent", "quorum", "consistent"] },
      { point: "watchers share one decoded copy of each change", terms: ["fan", "once", "share"] },
    ],
  },
  {
    id: "01-many-watchers",
    notebook,
    section: "5. Scale it: N controllers x M objects x change rate",
    topic: "watch",
    difficulty: "advanced",
    question:
      "Section 5 ran 16 controllers, each with its own watch, in one process. What is wasted, and how does client-go avoid it?",
    answer: `Every change crossed the wire 16 times, was decoded 16 times and stored in 16 caches; 16 connections stayed open
and 16 initial LISTs were paid at start. Section 5's "watch kB/s" column grows with N for that reason.

client-go's **SharedInformerFactory** gives every controller in a process the same informer per resource: one LIST,
one WATCH, one cache, and the events fanned out to each controller's handlers in memory. The server then sees one
watcher per process, not per controller. Across processes nothing is shared, which is why the number of watchers
(kubelets, node agents, operators) is what large clusters budget for. Notebook 03 measures it.`,
    keyPoints: [
      {
        point: "each change sent, decoded and cached once per watcher",
        terms: ["16 times", "once per", "each watcher", "duplicate"],
      },
      {
        point: "a shared informer: one watch and one cache per resource per process",
        terms: ["shared", "factory", "one watch"],
      },
      { point: "handlers fan out in memory", terms: ["fan", "handlers", "in memory"] },
    ],
  },
]);
