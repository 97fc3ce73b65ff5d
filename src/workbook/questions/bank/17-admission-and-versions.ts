import { defineQuestions } from "../question.js";

const notebook = "17-admission-and-versions";
const s1 = "1. Rules in the schema: CEL validation";
const s2 = "2. Defaults from the schema";
const s3 = "3. Webhooks: admission you write yourself";
const s4 = "4. When the webhook is down";
const s5 = "5. API versions and conversion";

/**
 * Questions for `notebooks/17-admission-and-versions.ipynb`: CRD validation rules, defaults, admission webhooks, and
 * CRD versions with their conversion.
 */
export const admission17 = defineQuestions([
  {
    id: "17-why-admission",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "basic",
    question:
      "Your controller crashes on a spec nobody should have been able to write. Why check it at the API server rather than in the controller?",
    answer: `Because a check in the controller runs after the object is stored: every cache, every other controller and every
watcher has it by then, and all the controller can do is report the mistake in status while the bad spec stays the
desired state. A check at the API server refuses the write before it is stored, and the person or tool who wrote it
gets the error at once (kubectl prints it, a GitOps tool marks its sync failed), instead of reading it later in a
status condition. Section 1 refused two Pools with 422 and no controller ever saw them.

The controller still validates what it depends on (a schema can change, an object can predate a rule), but the
API server is the cheapest place to stop it, and the only one where the writer learns about it.`,
    keyPoints: [
      {
        point: "refused before it is stored: no cache or controller sees it",
        terms: ["before", "stored", "never see"],
      },
      {
        point: "the writer gets the error at once",
        terms: ["writer", "client", "kubectl", "at once", "immediately"],
      },
      { point: "a controller can only report it afterwards", terms: ["status", "afterwards", "after"] },
    ],
  },
  {
    id: "17-cel-rule",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "basic",
    question: "What is an x-kubernetes-validations rule, and what does a client get when one fails?",
    answer: `A CEL expression on a node of a CRD's structural schema, evaluated by the API server on every write of that node,
with self bound to the node's value. A rule that evaluates to false refuses the write with 422 Invalid: a Status
with reason Invalid, a message listing every failed rule ("Pool... \\"too-many\\" is invalid: spec.replicas: ...")
and details.causes, one cause per failure with field, reason and message. client-go turns it into an error for
which apierrors.IsInvalid is true; client-node throws an ApiException with code 422 and the Status as its body.

Section 1 printed the whole Status of too-many and a table of causes: spec.replicas for the bound, spec.image for
the registry, with the message built by messageExpression.`,
    keyPoints: [
      { point: "a CEL expression on a schema node, self is its value", terms: ["cel", "self", "expression"] },
      { point: "false refuses the write with 422 Invalid", terms: ["422", "invalid"] },
      { point: "details.causes: field, reason, message per failure", terms: ["causes", "field"] },
    ],
  },
  {
    id: "17-message-fieldpath",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "intermediate",
    question: "What do message, messageExpression, fieldPath and reason change about a failed CEL rule?",
    answer: `Only how the refusal reads, never whether it happens. Without message the text is "failed rule: <the rule>";
message gives fixed text; messageExpression computes it in CEL from self (the image it refused, in section 1), and
on a runtime error reads as if it were not set (message, or the default); it has its own cost budget, so values in it need bounds (maxLength). fieldPath
says which field to blame, relative to the node the rule is on: the bound on spec was reported at spec.replicas
because of fieldPath ".replicas", so a form or kubectl points at the right field. reason sets the cause's reason
(FieldValueInvalid by default; FieldValueForbidden, FieldValueRequired, FieldValueDuplicate), which also changes the
wording ("Forbidden: ..." for the transition rule of section 1).

Rules that compare fields sit on their common parent, so fieldPath is how they still blame one field.`,
    keyPoints: [
      {
        point: "message fixed, messageExpression computed from the object",
        terms: ["messageexpression", "computed", "from the object"],
      },
      { point: "fieldPath blames a field below the rule's node", terms: ["fieldpath", "blame", "points"] },
      { point: "reason changes the cause's reason", terms: ["reason", "forbidden"] },
    ],
  },
  {
    id: "17-transition-rule",
    notebook,
    section: s1,
    topic: "api-basics",
    difficulty: "advanced",
    question:
      "How would you stop a field from dropping by more than half in one update, and what can such a rule not do?",
    answer: `With a transition rule: a validation rule that mentions oldSelf, such as self.replicas * 2 >= oldSelf.replicas on
spec. The API server runs it only on updates, and only where the old object has that node, binding oldSelf to the
stored value. Section 1: 10 -> 4 was refused with 422 (reason FieldValueForbidden), 10 -> 5 and then 5 -> 3 were
accepted.

What it cannot do: it never runs on create (there is no old object), so the first value is unconstrained; it sees
one step at a time, so several small steps get as far as they like (10 -> 5 -> 3); and it knows nothing outside the
object. The same pattern, self == oldSelf, makes a field immutable. A rule over the history or over other objects
needs a webhook or a controller.`,
    keyPoints: [
      { point: "a rule with oldSelf runs on update only", terms: ["oldself", "update", "transition"] },
      { point: "compares each write with what is stored", terms: ["stored", "each write", "previous"] },
      { point: "several small steps pass; create is unconstrained", terms: ["steps", "create", "one step"] },
    ],
  },
  {
    id: "17-default-added-later",
    notebook,
    section: s2,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "You add a field with a default to a CRD that already has objects. What do readers of the old objects see, and what is in etcd?",
    answer: `Readers see the default at once: the API server applies schema defaults when it decodes a request and again
when it reads an object from etcd, so every GET, LIST and watch event of an old object carries the new field.
Section 2 added spec.tier with default standard; a GET of web, stored in section 1, showed tier: standard moments
after the CRD update, and so did the LIST.

etcd still holds the old bytes until each object's next write, which stores the defaulted object. For a
controller this is what it wants (the field is always there), but a tool that compares stored bytes, or a
migration that counts objects "without the field", sees something else than the API.`,
    keyPoints: [
      { point: "defaults applied when reading from etcd", terms: ["read", "on read", "decode"] },
      { point: "old objects show the field on GET and LIST", terms: ["get", "list", "old object"] },
      {
        point: "etcd unchanged until the next write",
        terms: ["etcd", "next write", "not rewritten", "persisted"],
      },
    ],
  },
  {
    id: "17-default-parent",
    notebook,
    section: s2,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "A CRD defaults spec.replicas to 1, yet an object created without spec has no replicas. Why, and what is the usual fix?",
    answer: `A default applies only where its parent exists: the defaulter walks the object it was given and fills missing
fields of objects that are there; it never creates the parent to hold them. Section 2 created bare without spec,
and it was stored with no spec at all, while a Pool with an otherwise empty spec got replicas 1 and maxReplicas
10.

The fix is a default on the parent too: default: {} on spec (in kubebuilder, +kubebuilder:default={} on the Spec
field), so spec is created empty and then its own fields are defaulted. Rules on spec did not run for bare either:
there was no node to run them on.`,
    keyPoints: [
      { point: "defaults apply only where the parent exists", terms: ["parent", "exists"] },
      { point: "default the parent with {}", terms: ["default: {}", "default={}", "empty object"] },
    ],
  },
  {
    id: "17-admission-order",
    notebook,
    section: s3,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "In what order does kube-apiserver apply defaults, mutating webhooks, schema validation and validating webhooks to a write?",
    answer: `Decode (with pruning of unknown fields and schema defaults), then mutating admission (mutating webhooks, in order,
each seeing the previous one's patches; defaults are applied again to what they return), then validation of the
object (the schema, CEL rules, the kind's own checks), then validating admission (validating webhooks, in parallel),
then the write to etcd. Mutation must come first so that validation judges the final object.

Section 3 showed it: the Pool the schema refused (huge) was sent to the mutating webhook and never to the
validating one (3 mutating calls, 3 validating calls for 4 writes), and the validating webhook received the object
with the mutating webhook's annotation already on it.`,
    keyPoints: [
      { point: "mutating webhooks first", terms: ["mutating first", "mutating", "first"] },
      { point: "then schema and CEL validation", terms: ["schema", "validation", "cel"] },
      {
        point: "validating webhooks last, on the final object",
        terms: ["validating", "last", "final object"],
      },
    ],
  },
  {
    id: "17-admission-review",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "basic",
    question: "What does an admission webhook receive, and what must it answer?",
    answer: `An HTTPS POST of an AdmissionReview (admission.k8s.io/v1) whose request carries a uid, the kind and resource (and
subresource), the namespace and name, the operation (CREATE, UPDATE, DELETE, CONNECT), userInfo (who is asking),
object (the new object, null on DELETE), oldObject (the stored one on UPDATE and DELETE, null on CREATE), dryRun
and the options of the request. Section 3 printed the review of the create of api: oldObject null, dryRun false,
username workbook-admin.

It answers an AdmissionReview whose response repeats the request's uid (a different uid fails the call), says
allowed true or false, and may add a status (code and message of a denial, 403 by default), warnings for the
client, and, from a mutating webhook, a base64 JSON Patch with patchType JSONPatch.`,
    keyPoints: [
      {
        point: "an AdmissionReview with object, oldObject, operation, userInfo",
        terms: ["admissionreview", "oldobject", "userinfo", "operation"],
      },
      { point: "answer repeats the uid, allowed true or false", terms: ["uid", "allowed"] },
      { point: "a mutating webhook answers a JSON Patch", terms: ["json patch", "patch"] },
    ],
  },
  {
    id: "17-webhook-or-cel",
    notebook,
    section: s3,
    topic: "operators",
    difficulty: "intermediate",
    question: "When do you write an admission webhook instead of a CEL rule in the CRD?",
    answer: `When the decision needs something the object does not contain: another object (section 3's list of approved
images in a ConfigMap), an external system, who is asking (userInfo, which the mutating webhook stamped), or a
change to the object computed outside the schema. A CEL rule sees only the object (and oldSelf), within a cost
budget, but it runs inside the API server: no extra Deployment, no certificates, no network call, nothing to be
down.

That last point is the trade-off section 4 measured: a webhook with failurePolicy Fail that is down refuses every
matching write. So prefer schema keywords, then CEL (and ValidatingAdmissionPolicy for built-in kinds), and keep
webhooks for what needs the outside world.`,
    keyPoints: [
      {
        point: "webhook when the decision needs other objects or the caller",
        terms: ["other object", "configmap", "external", "userinfo"],
      },
      {
        point: "CEL runs in the API server: nothing to deploy or be down",
        terms: ["in the api server", "no deployment", "down", "network"],
      },
      { point: "prefer CEL; webhooks cost availability", terms: ["prefer", "availability", "outage"] },
    ],
  },
  {
    id: "17-fail-or-ignore",
    notebook,
    section: s4,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "Your validating webhook is down. What do clients get with failurePolicy Fail, and with Ignore? Which do you choose?",
    answer: `With Fail (the default in v1) every write the webhook matches is refused with 500 InternalError, "failed calling
webhook <name>: failed to call webhook: ... connection refused"; writes it does not match are untouched. Section 4
measured it: 5 Pool creates attempted, 5 refused, nothing stored, while a ConfigMap in the same namespace went
through. With Ignore the webhook is skipped: the same 5 were accepted, and so was a Pool with an unapproved image,
and the mutating webhook's stamp was missing on all of them.

Choose by what a missing check costs. A security or policy check says Fail and is run as a critical service
(replicas, a PodDisruptionBudget, narrow rules and selectors, alerts on latency and errors); a convenience (a label,
a default a controller can also fill in) can say Ignore. Either way, keep the rules as narrow as the purpose.`,
    keyPoints: [
      { point: "Fail: every matching write refused with 500", terms: ["500", "internalerror", "refused"] },
      { point: "Ignore: writes go on unchecked", terms: ["ignore", "unchecked", "skipped"] },
      {
        point: "choose by the cost of a missing check",
        terms: ["security", "policy", "convenience", "cost"],
      },
      {
        point: "narrow rules limit the blast radius",
        terms: ["narrow", "rules", "blast radius", "selector"],
      },
    ],
  },
  {
    id: "17-kube-system",
    notebook,
    section: s4,
    topic: "operators",
    difficulty: "advanced",
    question:
      "How can a failing webhook stop a cluster from repairing itself, and how do you configure it so it cannot?",
    answer: `A webhook with failurePolicy Fail that matches the writes the cluster needs to recover refuses them while it is
down: its own Pods cannot be recreated if it matches Pods in its namespace, CoreDNS or the CNI cannot restart in
kube-system, and nothing brings the webhook back; the cluster is stuck until someone deletes the configuration.

The guard is a namespaceSelector that leaves those namespaces out. kube-apiserver labels every namespace with
kubernetes.io/metadata.name, so matchExpressions with NotIn [kube-system, the webhook's own namespace] does it.
Section 4 showed it with the webhook down: a Pool in the notebook's namespace refused with 500, one in kube-system
accepted. Add narrow rules, an objectSelector where possible, and never match the webhook's own Pods.`,
    keyPoints: [
      {
        point: "Fail on the writes needed for recovery deadlocks the cluster",
        terms: ["deadlock", "cannot recreate", "own pods", "recover"],
      },
      {
        point: "namespaceSelector excluding kube-system",
        terms: ["namespaceselector", "kube-system", "notin"],
      },
      {
        point: "kubernetes.io/metadata.name label on every namespace",
        terms: ["kubernetes.io/metadata.name", "label"],
      },
    ],
  },
  {
    id: "17-timeout",
    notebook,
    section: s4,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "What does timeoutSeconds on a webhook do, and why does a slow webhook hurt even when it allows everything?",
    answer: `It is how long the API server waits for the webhook's answer: 1 to 30 seconds, default 10. Past it, the call counts
as failed and failurePolicy decides: Fail refuses the write with 500 ("context deadline exceeded"), Ignore goes on
without it. In section 4 a webhook that slept 3 s and then denied, called with timeoutSeconds 1: the Fail write was
refused with 500 (not the webhook's 403, which came too late) and the Ignore write was stored; each waited about a
second.

Every matching write waits for the webhook, so a slow webhook is a slow API for everyone who writes those objects,
and with the default 10 s a client's own timeout may fire first. Keep webhooks fast (no slow calls in them), the
timeout short, and the rules narrow.`,
    keyPoints: [
      { point: "how long the API server waits, 1-30 s, default 10", terms: ["10", "default", "30", "wait"] },
      {
        point: "a timeout is a failure: failurePolicy decides",
        terms: ["failurepolicy", "timeout", "deadline"],
      },
      { point: "every matching write pays the latency", terms: ["every write", "latency", "slow"] },
    ],
  },
  {
    id: "17-crd-versions",
    notebook,
    section: s5,
    topic: "api-basics",
    difficulty: "basic",
    question: "A CRD lists two versions. What do served, storage and spec.conversion decide?",
    answer: `served says whether the API server answers requests at that version's URL; several versions can be served at
once. storage: true marks the one version (exactly one) objects are written to etcd in: an object stays in the
version that was the storage version when it was last written. spec.conversion says how an object gets from the
version it is stored in to the version a request names, on every read, list, watch event and write: None changes
only apiVersion (then prunes to the target schema), Webhook asks a conversion webhook.

Section 5 served the Fleet at v1alpha1 and v1 from one storage: the same object read through both versions, and
the webhook called only for the version it was not stored in.`,
    keyPoints: [
      { point: "served: the version's URL answers", terms: ["served", "answers", "url"] },
      {
        point: "storage: exactly one, the version written to etcd",
        terms: ["storage", "etcd", "exactly one"],
      },
      {
        point: "conversion: None or Webhook, between stored and requested",
        terms: ["none", "webhook", "convert"],
      },
    ],
  },
  {
    id: "17-conversion-none",
    notebook,
    section: s5,
    topic: "api-basics",
    difficulty: "intermediate",
    question:
      "v1 renamed a field of v1alpha1 and added one, and the CRD says conversion None. What does each client read?",
    answer: `With None the API server changes only apiVersion and prunes the object to the target version's schema. So a
v1 client reading an object written through v1alpha1 sees neither the old field (pruned: v1 does not declare it)
nor the new one (nothing filled it in), and a field written through v1 that the storage version does not declare
is dropped before it is stored, even from the write's own answer. No error: every write got 201.

Section 5's table: old (size 3, through v1alpha1) read as v1 with an empty spec, its size still in etcd; new
(replicas and zones through v1, stored as v1alpha1) lost both for good. None is only safe when the versions have
the same fields; a rename or a new field needs a conversion webhook.`,
    keyPoints: [
      { point: "None changes only apiVersion", terms: ["apiversion", "only"] },
      { point: "fields the target schema lacks are pruned", terms: ["prune", "pruned", "dropped"] },
      { point: "silently: the write still succeeds", terms: ["silent", "no error", "201", "succeeds"] },
      { point: "a rename needs a webhook", terms: ["webhook", "rename"] },
    ],
  },
  {
    id: "17-round-trip-annotation",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "advanced",
    question:
      "v1 adds a field the old version has no place for. How do you keep it through storage in the old version, and through an old client's read-modify-write?",
    answer: `A conversion can only answer with what the desired version's schema holds; anything else is pruned. So the
webhook, converting down, serialises the v1-only field into an annotation of the old-version object, and converting
up, restores it from the annotation and removes the annotation. Annotations exist in every version, so the value
survives storage in v1alpha1, and an old client that reads, changes something else and writes back sends the
annotation back too. Kubernetes does the same for its own types (an autoscaling/v1 HorizontalPodAutoscaler keeps
v2's metrics in autoscaling.alpha.kubernetes.io/metrics).

Section 5 measured both: zones written through v1 while v1alpha1 was the storage version came back as v1 only
when the webhook kept them in the annotation. The cost: the annotation is visible and editable to old clients, and
a client that strips annotations loses the field. Better still, store the newest version (the hub) so nothing
needs the annotation at rest.`,
    keyPoints: [
      { point: "down: the field goes into an annotation", terms: ["annotation", "serialise", "serialize"] },
      { point: "up: restored from the annotation", terms: ["restore", "up", "back"] },
      {
        point: "annotations survive every version and old clients' writes",
        terms: ["old client", "every version"],
      },
      { point: "else the field is pruned and lost", terms: ["prune", "lost", "dropped"] },
    ],
  },
  {
    id: "17-storage-migration",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "intermediate",
    question:
      "You moved a CRD's storage version to v1. Why can you not delete v1alpha1 yet, and what is a storage migration?",
    answer: `Moving storage: true changes only new writes; every object already in etcd stays in v1alpha1 until something
writes it again. The CRD records every version that may still be in etcd in status.storedVersions (the move appended
v1: ["v1alpha1", "v1"]), and the API server refuses to remove a version listed there from spec.versions (422:
"v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ...").
Otherwise those objects could no longer be decoded.

A storage migration reads every object and writes it back unchanged (a write stores it in the current storage
version; kube-storage-version-migrator automates it), then removes the old version from status.storedVersions with
a /status write. Section 5 showed it with the webhook's calls: a GET as v1 cost one call for the three old Fleets
before, none after.`,
    keyPoints: [
      { point: "old objects stay in the old version until rewritten", terms: ["until", "rewritten", "stay"] },
      { point: "status.storedVersions lists versions that may be in etcd", terms: ["storedversions"] },
      { point: "removing a listed version is refused", terms: ["422", "refused", "refuses"] },
      {
        point: "migration: read and write back every object, then /status",
        terms: ["read", "write", "every object"],
      },
    ],
  },
  {
    id: "17-conversion-webhook-down",
    notebook,
    section: s5,
    topic: "operators",
    difficulty: "advanced",
    question:
      "Your CRD's conversion webhook is down. Which requests fail, with what, and what limits the damage?",
    answer: `Every request that needs a conversion: reads of objects stored in another version than the one asked for, and
writes whose body or stored object must be converted. There is no failurePolicy for conversion: the client gets
500 with kube-apiserver's "conversion webhook for <group>/<version>, Kind=<Kind> failed: Post ...: connection
refused" (apierrors.IsInternalError), and a controller reading through that version keeps failing until the
webhook is back. Requests in the version an object is stored in need no webhook and keep working.

Section 5 stopped the webhook after the migration: every GET as v1 (the stored version) answered 200, every GET as
v1alpha1 and a create through it got 500. So run the webhook like the API server (replicas, a PodDisruptionBudget,
alerts), migrate storage to the version your controllers use, and retire old versions so fewer requests need it.`,
    keyPoints: [
      { point: "requests that need a conversion fail, reads included", terms: ["read", "get", "conversion"] },
      { point: "500, no failurePolicy", terms: ["500", "failurepolicy", "internal"] },
      {
        point: "the stored version keeps working",
        terms: ["stored version", "storage version", "no conversion"],
      },
      {
        point: "migrate storage, run the webhook highly available",
        terms: ["migrat", "replicas", "available"],
      },
    ],
  },
]);
