import { defineQuestions } from "../question.js";

const notebook = "14-which-events-wake-a-controller";
const s1 = "1. A status-heavy churn: how often does the controller wake?";
const s2 = "2. What a filter hides";
const s3 = "3. A Secret many sites reference: waking the referrers";
const s4 = "4. Finding the referrers: an index or a scan";

/** Questions for `notebooks/14-which-events-wake-a-controller.ipynb`: event filters, map functions, indexes. */
export const events14 = defineQuestions([
  {
    id: "14-why-filter",
    notebook,
    section: s1,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "Why would you put an event filter (a predicate) in front of a controller, if reconcile is idempotent anyway?",
    answer: `Because every write to a watched object is an event and, unfiltered, every event is a reconcile. Idempotency makes
the extra reconciles harmless, not free: each one reads the cache, maybe calls the API server or an external
system, and keeps a worker busy while real work waits in the queue. In section 1 a peer writing status every 300 ms
kept the plain controller reconciling every site over and over, while the controller filtered with
generationChanged ran exactly twice, once per spec edit. A controller's own status writes wake it the same way.

The trade-off: a filter is a promise that the hidden events never matter. When that promise is wrong, the
controller silently misses work (section 2), and the resync safety net is hidden too.`,
    keyPoints: [
      {
        point: "every write is an event, every event a reconcile",
        terms: ["every event", "every write", "each write"],
      },
      {
        point: "idempotent is harmless, not free: cost and queue time",
        terms: ["cost", "work", "busy", "load", "api call"],
      },
      { point: "status writes, including your own, wake it", terms: ["status", "own write", "heartbeat"] },
      { point: "a filter hides events for good", terms: ["hide", "miss", "promise", "resync"] },
    ],
  },
  {
    id: "14-generation",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "When does the API server increment metadata.generation of a custom resource, and when does it not?",
    answer: `For a custom resource with the status subresource, generation moves on a change to anything outside metadata and
status (in practice the spec), and when deletionTimestamp is first set on an object that still has finalizers.
It does not move on writes to /status, on label, annotation or finalizer changes, or on a write that changes
nothing. Section 2's table shows it step by step: created 1, status, label and annotation writes still 1, the
spec edit 2, the delete request 3. Without a status subresource, a status change is a change outside metadata and
moves it too.

Built-in kinds follow their own strategies: a Deployment's generation also moves on some annotation writes, a
ConfigMap has none. That is why GenerationChangedPredicate is documented for custom resources and why
observedGeneration in status compares against it.`,
    keyPoints: [
      { point: "spec changes move it", terms: ["spec"] },
      { point: "status, labels, annotations do not", terms: ["status", "label", "annotation", "metadata"] },
      {
        point: "the start of a deletion with finalizers moves it",
        terms: ["deletiontimestamp", "deletion", "finalizer"],
      },
      { point: "built-in kinds differ", terms: ["deployment", "built-in", "builtin", "kind"] },
    ],
  },
  {
    id: "14-per-source",
    notebook,
    section: s1,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "You add GenerationChangedPredicate to your controller. Does the informer cache stop receiving status updates?",
    answer: `No. A predicate decides whether an event becomes a key on this controller's queue; the informer still receives
every watch event and updates its cache with it. In section 1 the filtered controller shared one informer with an
unfiltered one: the cache held every status the peer wrote, the plain controller saw every event, the filtered
one saw two. In controller-runtime predicates are attached per source (For, Owns or Watches with
builder.WithPredicates, or WithEventFilter for all of them), and the manager's cache is shared by every controller.

To store less, you change the cache instead: a label or field selector on the informer, a transform that drops
fields, or controller-runtime's cache options per object. Those change what everyone sharing the cache sees.`,
    keyPoints: [
      { point: "the cache still gets every event", terms: ["cache", "every event", "still"] },
      {
        point: "predicates filter one registration / source",
        terms: ["per source", "registration", "for", "watches", "withpredicates"],
      },
      {
        point: "to store less, change the cache: selectors, transform",
        terms: ["selector", "transform", "cache option"],
      },
    ],
  },
  {
    id: "14-stuck-terminating",
    notebook,
    section: s2,
    topic: "deletion",
    difficulty: "advanced",
    question:
      "Your controller only reconciles when the spec changed (you compare old and new spec in an update filter). Objects with your finalizer now hang in Terminating. Why?",
    answer: `Deleting an object that has finalizers is an update: the API server sets deletionTimestamp and keeps the object
until the finalizers are gone. The spec does not change, so a filter that compares specs hides exactly the event
that should run the cleanup and remove the finalizer. Nothing else wakes the key (a resync would also be hidden),
so the object stays Terminating. Section 2 shows it: the hand-written spec filter's column is empty at "delete
requested".

GenerationChangedPredicate does not have this bug for custom resources: the API server increments generation
when it first sets deletionTimestamp, and the table's generation column shows it. Either use it, or let updates
through whenever deletionTimestamp is set (predicate.or with a deletion check).`,
    keyPoints: [
      {
        point: "a delete with finalizers is an update setting deletionTimestamp",
        terms: ["deletiontimestamp", "update"],
      },
      { point: "spec unchanged, so the filter hides it", terms: ["spec", "hide", "filtered", "unchanged"] },
      { point: "generation moves on deletion start", terms: ["generation"] },
      {
        point: "pass updates with deletionTimestamp set",
        terms: ["or", "deletion", "deleting", "isbeingdeleted"],
      },
    ],
  },
  {
    id: "14-resync-hidden",
    notebook,
    section: s2,
    topic: "reconcile",
    difficulty: "advanced",
    question: "What does GenerationChangedPredicate cost you in terms of self-healing?",
    answer: `It hides every update whose generation did not move: status writes by others, label and annotation edits, and the
periodic resync, which re-delivers unchanged objects as updates with the same generation. So if someone
overwrites or wipes the status, the filtered controller does not notice until the spec changes or the process
restarts (the initial list passes as creates). The resync safety net of notebook 05 is switched off for that
source. controller-runtime's documentation states this caveat on the predicate itself.

Options: accept it (status is recomputed on the next real change), leave status-owning logic unfiltered, or
requeue periodically from the reconcile (RequeueAfter), which does not go through the predicate. Section 2's
text names what the filter hides.`,
    keyPoints: [
      { point: "resync is an update with the same generation: hidden", terms: ["resync"] },
      {
        point: "overwritten status is not repaired",
        terms: ["status", "overwritten", "wiped", "self-correct", "heal"],
      },
      { point: "RequeueAfter bypasses predicates", terms: ["requeueafter", "requeue after", "requeue"] },
    ],
  },
  {
    id: "14-filtering-handler",
    notebook,
    section: s2,
    topic: "informer",
    difficulty: "intermediate",
    question:
      "client-go's FilteringResourceEventHandler and controller-runtime's predicates both filter events. How do they differ on an update?",
    answer: `FilteringResourceEventHandler applies one filter function to each object alone. On an update it filters the old and
the new object: both pass, the handler gets OnUpdate; only the new passes, OnAdd (the object entered the filtered
view); only the old passes, OnDelete (it left); neither, nothing. A label-selector-like filter therefore behaves as
if the handler watched only matching objects.

A controller-runtime predicate sees the pair (old, new) and answers yes or no; an update stays an update. That is
what makes GenerationChangedPredicate possible (it compares the two), and why it never produces a synthetic
delete. The package has both (FilteringResourceEventHandler and withPredicates); section 2 explains the
difference.`,
    keyPoints: [
      {
        point: "client-go judges each object alone",
        terms: ["each object", "alone", "filterfunc", "one object"],
      },
      {
        point: "update becomes add or delete when crossing the filter",
        terms: ["add", "delete", "enter", "leave"],
      },
      { point: "predicates judge the pair and keep it an update", terms: ["pair", "old and new", "both"] },
    ],
  },
  {
    id: "14-label-annotation",
    notebook,
    section: s2,
    topic: "reconcile",
    difficulty: "basic",
    question:
      "When would you combine GenerationChangedPredicate with LabelChangedPredicate or AnnotationChangedPredicate?",
    answer: `When part of the desired state lives in labels or annotations rather than the spec: a reference to a Secret in an
annotation (section 3), a pause annotation, a label that selects a tier. Those writes do not move generation, so
GenerationChangedPredicate alone hides them; predicate.Or(GenerationChangedPredicate{},
AnnotationChangedPredicate{}) lets spec changes and annotation changes through and still hides status writes.
Section 3's site registration does exactly that, and its check re-points a site by annotation.

The price: any annotation change wakes the controller, including ones written by unrelated tools
(kubectl.kubernetes.io/last-applied-configuration, for example). A custom predicate comparing only your
annotation is tighter.`,
    keyPoints: [
      { point: "desired state in labels or annotations", terms: ["annotation", "label"] },
      { point: "they do not move generation", terms: ["generation"] },
      { point: "Or of the two predicates", terms: ["or"] },
      {
        point: "unrelated annotation writes wake it too",
        terms: ["unrelated", "any annotation", "other tools", "custom"],
      },
    ],
  },
  {
    id: "14-map-func",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "basic",
    question:
      "Many of your custom resources reference one Secret. How do you make sure they are all reconciled when the Secret changes?",
    answer: `Watch Secrets too, and map each Secret event to the keys of the objects that reference it: in controller-runtime
Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(fn)), where fn returns one reconcile.Request per
referrer. Section 3 rotates a Secret used by 30 sites and reconciles exactly those 30, not the 10 using another
Secret. The reconcile then reads the Secret from the cache (level-triggered: the key says which site, the cache
says what is true).

Owner references do not help here (the Secret is not owned by any one site), and without the watch nothing wakes
the sites until a resync. The map function runs on every Secret event, so it should read the cache through an
index (section 4), not list from the API server.`,
    keyPoints: [
      { point: "watch the Secret as a second source", terms: ["watch", "watches", "informer"] },
      {
        point: "map function to the referrers' keys",
        terms: ["map", "enqueuerequestsfrommapfunc", "referrer"],
      },
      { point: "not owned: owner references do not apply", terms: ["owner", "not own"] },
      { point: "read from the cache, via an index", terms: ["cache", "index"] },
    ],
  },
  {
    id: "14-map-old-new",
    notebook,
    section: s3,
    topic: "informer",
    difficulty: "advanced",
    question:
      "Why does EnqueueRequestsFromMapFunc run the map function on both the old and the new object of an update?",
    answer: `Because the set of keys an object maps to can change with the update. If a Secret's label, or a Service's selector,
changes which objects it relates to, the objects it stops relating to must be reconciled too (to drop what they
derived from it), and only the old object knows them. controller-runtime maps both and enqueues the union; the
package's enqueueRequestsFromMapFunc does the same and deduplicates per event. enqueueRequestForOwner does the
same for a changed controller reference.

The same reasoning explains why section 3's site registration lets annotation changes through: when a site is
re-pointed to another Secret, the site itself must be reconciled to read the new one, which the check shows.`,
    keyPoints: [
      { point: "the mapping can change with the update", terms: ["change", "moved", "no longer"] },
      { point: "old referrers must be reconciled too", terms: ["old", "both", "union"] },
      { point: "deduplicated", terms: ["dedup", "union", "once"] },
    ],
  },
  {
    id: "14-map-func-reads",
    notebook,
    section: s3,
    topic: "cache",
    difficulty: "intermediate",
    question: "What should a map function not do, and why?",
    answer: `It should not call the API server. It runs on the informer's handler path for every event of the watched kind, so a
LIST per Secret event multiplies API load by the event rate and slows every other handler's delivery; under a
burst it becomes a storm. It should also not scan the whole cache when the cache is large (section 4). Read the
cache through an index: section 3's sitesUsing is one listByField call.

It should also be cheap and total: no blocking, no errors thrown into the informer (controller-runtime's map
function cannot return an error; the package reports a throw and enqueues nothing for that event), and it should
return keys, not do work; the reconcile does the work.`,
    keyPoints: [
      { point: "no API calls: it runs on every event", terms: ["api", "list call", "every event", "load"] },
      { point: "read the cache via an index", terms: ["cache", "index"] },
      { point: "only return keys, no work", terms: ["keys", "requests", "no work", "cheap"] },
    ],
  },
  {
    id: "14-field-index",
    notebook,
    section: s4,
    topic: "cache",
    difficulty: "basic",
    question: "What is a field indexer in controller-runtime, and what does it cost?",
    answer: `mgr.GetFieldIndexer().IndexField(ctx, obj, field, extract) adds an index to the informer cache of that kind: for
every cached object, extract returns the values it is found under, and the cache keeps value -> keys up to date on
every add, update and delete. client.List(ctx, list, client.MatchingFields{field: value}) then answers from that
index instead of scanning. Underneath it is client-go's Indexers / AddIndexers / ByIndex.

Section 4 measures it at 10,000 objects: the lookup reads only the answers, the scan reads every object, and both
return the same set (checked). The cost is paid on writes and in memory: each value is filed twice (under the
namespace and under all namespaces), on every event, for the life of the process.`,
    keyPoints: [
      { point: "an index on the informer cache", terms: ["index", "cache", "indexer"] },
      { point: "MatchingFields lookup instead of a scan", terms: ["matchingfields", "scan", "lookup"] },
      { point: "cost on every write and in memory", terms: ["memory", "write", "update", "cost"] },
    ],
  },
  {
    id: "14-index-vs-scan",
    notebook,
    section: s4,
    topic: "cache",
    difficulty: "intermediate",
    question: "When is a scan of the cache good enough, and when do you need an index?",
    answer: `A scan costs time proportional to the number of cached objects; an index costs a little on every write plus memory,
and makes the lookup proportional to the number of answers. Scan when the question is asked rarely or the cache is
small: once per reconcile of a small kind, in a one-off report. Index when the question is asked on every event,
as a map function does, or when the cache is large: section 4's scan over 10,000 sites took many times the
lookup, and it grows with the cache while the lookup stays flat.

A list from the API server with a field selector is not an alternative for hot paths: it is a request per
question, and custom resources support field selectors only on metadata.name, metadata.namespace and the fields
the CRD declares in selectableFields.`,
    keyPoints: [
      {
        point: "scan is O(cache), index O(answers)",
        terms: ["proportional", "every object", "grows", "o(n)", "flat"],
      },
      {
        point: "index when asked on every event or large cache",
        terms: ["every event", "hot", "large", "often"],
      },
      { point: "index costs writes and memory", terms: ["memory", "write"] },
    ],
  },
]);
