/**
 * apps/v1 StatefulSet, DaemonSet and ControllerRevision served from data, after
 * `pkg/registry/apps/{statefulset,daemonset,controllerrevision}/strategy.go` and `pkg/apis/apps/v1/defaults.go`.
 * Stored only: no controller creates their pods.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { defaultPodTemplate, objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { defaultClaim } from "./core-kinds.js";
import { at, itemsAt, validateSelectedTemplate } from "./fields.js";

/** The annotation apps/v1 keeps a DaemonSet's template generation in (`Spec.TemplateGeneration` inside). */
export const TEMPLATE_GENERATION_ANNOTATION = "deprecated.daemonset.template.generation";

/** The StatefulSet spec fields an update may change (`ValidateStatefulSetUpdate`). */
const STATEFULSET_MUTABLE = [
  "replicas",
  "ordinals",
  "template",
  "updateStrategy",
  "revisionHistoryLimit",
  "persistentVolumeClaimRetentionPolicy",
  "minReadySeconds",
];

/** `SetDefaults_StatefulSet`. */
function defaultStatefulSet(sts: KubeObject): void {
  const spec = objectAt(sts, "spec");
  setIfAbsent(spec, "podManagementPolicy", "OrderedReady");
  const strategy = objectAt(spec, "updateStrategy");
  setIfAbsent(strategy, "type", "RollingUpdate");
  if (strategy.type === "RollingUpdate") setIfAbsent(objectAt(strategy, "rollingUpdate"), "partition", 0);
  const retention = objectAt(spec, "persistentVolumeClaimRetentionPolicy");
  setIfAbsent(retention, "whenDeleted", "Retain");
  setIfAbsent(retention, "whenScaled", "Retain");
  setIfAbsent(spec, "replicas", 1);
  setIfAbsent(spec, "revisionHistoryLimit", 10);
  defaultPodTemplate(spec.template);
  for (const [claim] of itemsAt(spec, "volumeClaimTemplates")) defaultClaim(claim);
}

function validateStatefulSet(sts: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
  validateSelectedTemplate(sts, errs, ["Always"]);
  if (!old) return;
  const frozen = (o: KubeObject) => {
    const spec = { ...((o.spec ?? {}) as JsonObject) };
    for (const f of STATEFULSET_MUTABLE) delete spec[f];
    return JSON.stringify(spec);
  };
  if (frozen(sts) !== frozen(old)) {
    const list = STATEFULSET_MUTABLE.slice(0, -1).map((f) => `'${f}'`);
    errs.forbidden(
      "spec",
      `updates to statefulset spec for fields other than ${list.join(", ")} and '${STATEFULSET_MUTABLE.at(-1)}' are forbidden`,
    );
  }
}

/** `SetDefaults_DaemonSet`: RollingUpdate with maxUnavailable 1 and maxSurge 0, ten revisions kept. */
function defaultDaemonSet(ds: KubeObject): void {
  const spec = objectAt(ds, "spec");
  const strategy = objectAt(spec, "updateStrategy");
  setIfAbsent(strategy, "type", "RollingUpdate");
  if (strategy.type === "RollingUpdate") {
    const rolling = objectAt(strategy, "rollingUpdate");
    setIfAbsent(rolling, "maxUnavailable", 1);
    setIfAbsent(rolling, "maxSurge", 0);
  }
  setIfAbsent(spec, "revisionHistoryLimit", 10);
  defaultPodTemplate(spec.template);
}

function setTemplateGeneration(ds: KubeObject, generation: number): void {
  const meta = objectAt(ds, "metadata");
  meta.annotations = { ...(isJsonObject(meta.annotations) ? meta.annotations : {}) };
  (meta.annotations as JsonObject)[TEMPLATE_GENERATION_ANNOTATION] = String(generation);
}

/** The daemonset strategy: template generation 1 on create, +1 on each template change. */
function nextTemplateGeneration(ds: KubeObject, old: KubeObject): void {
  const before = Number(old.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? 0) || 0;
  const changed = JSON.stringify(at(ds, "spec.template")) !== JSON.stringify(at(old, "spec.template"));
  setTemplateGeneration(ds, changed ? before + 1 : before);
}

/** The apps/v1 kinds served from data. */
export const APPS_KINDS: readonly KindSpec[] = [
  {
    group: "apps",
    version: "v1",
    resource: "statefulsets",
    kind: "StatefulSet",
    namespaced: true,
    shortNames: ["sts"],
    categories: ["all"],
    status: true,
    generation: "spec",
    defaults: defaultStatefulSet,
    validate: validateStatefulSet,
  },
  {
    group: "apps",
    version: "v1",
    resource: "daemonsets",
    kind: "DaemonSet",
    namespaced: true,
    shortNames: ["ds"],
    categories: ["all"],
    status: true,
    generation: "spec",
    defaults: defaultDaemonSet,
    prepareForCreate: (ds) => setTemplateGeneration(ds, 1),
    prepareForUpdate: nextTemplateGeneration,
    validate: (ds, errs) => validateSelectedTemplate(ds, errs, ["Always"]),
  },
  {
    group: "apps",
    version: "v1",
    resource: "controllerrevisions",
    kind: "ControllerRevision",
    namespaced: true,
    validate: (rev, errs) => {
      if (rev.data === undefined || rev.data === null) errs.required("data", "data is mandatory");
      if (typeof rev.revision === "number" && rev.revision < 0) {
        errs.invalid("revision", rev.revision, "must be greater than or equal to 0");
      }
    },
  },
];
