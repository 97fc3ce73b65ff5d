/**
 * The operations kinds served from data: policy/v1 PodDisruptionBudget, autoscaling/v2 HorizontalPodAutoscaler,
 * scheduling.k8s.io/v1 PriorityClass and storage.k8s.io/v1 StorageClass, after their strategies, defaults and
 * validation in kube-apiserver 1.34. Stored only: no disruption controller, autoscaler, scheduler or provisioner
 * acts on them here.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { at, isMissing, requireFields } from "./fields.js";

/** `SetDefaults_HorizontalPodAutoscaler` (v2): one replica at least, 80% CPU when no metric is given. */
function defaultHpa(hpa: KubeObject): void {
  const spec = objectAt(hpa, "spec");
  setIfAbsent(spec, "minReplicas", 1);
  if (isMissing(spec.metrics)) {
    spec.metrics = [
      {
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      },
    ];
  }
}

function validateHpa(hpa: KubeObject, errs: FieldErrors): void {
  const min = at(hpa, "spec.minReplicas");
  const max = at(hpa, "spec.maxReplicas");
  const maxValue = typeof max === "number" ? max : 0;
  if (typeof min === "number" && min < 1)
    errs.invalid("spec.minReplicas", min, "must be greater than or equal to 1");
  if (maxValue < 1) errs.invalid("spec.maxReplicas", maxValue, "must be greater than 0");
  if (typeof min === "number" && maxValue < min) {
    errs.invalid("spec.maxReplicas", maxValue, "must be greater than or equal to `minReplicas`");
  }
  requireFields(hpa, errs, "spec.scaleTargetRef.kind", "spec.scaleTargetRef.name");
}

/** The priority classes kube-apiserver creates itself; other `system-` names are reserved. */
const SYSTEM_PRIORITY_CLASSES = ["system-cluster-critical", "system-node-critical"];

function validatePriorityClass(pc: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
  const name = pc.metadata?.name ?? "";
  if (!old && name.startsWith("system-") && !SYSTEM_PRIORITY_CLASSES.includes(name)) {
    errs.forbidden(
      "metadata.name",
      `priority class names with 'system-' prefix are reserved for system use only. error: ${name} is not a known system priority class`,
    );
  }
  if (old && pc.value !== old.value) errs.forbidden("value", "may not be changed in an update.");
}

function validateStorageClass(sc: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
  requireFields(sc, errs, "provisioner");
  if (!old) return;
  for (const field of ["provisioner", "parameters", "reclaimPolicy"]) {
    if (JSON.stringify(sc[field]) !== JSON.stringify(old[field])) {
      errs.forbidden(field, `updates to ${field} are forbidden.`);
    }
  }
}

/** The policy, autoscaling, scheduling and storage kinds served from data. */
export const CLUSTER_OPS_KINDS: readonly KindSpec[] = [
  {
    group: "policy",
    version: "v1",
    resource: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    namespaced: true,
    shortNames: ["pdb"],
    status: true,
    generation: "spec",
    validate: (pdb, errs) => {
      const spec = objectAt({ ...pdb }, "spec");
      if (spec.minAvailable != null && spec.maxUnavailable != null) {
        errs.invalid("spec", spec, "minAvailable and maxUnavailable cannot be both set");
      }
    },
  },
  {
    group: "autoscaling",
    version: "v2",
    resource: "horizontalpodautoscalers",
    kind: "HorizontalPodAutoscaler",
    namespaced: true,
    shortNames: ["hpa"],
    categories: ["all"],
    status: true,
    defaults: defaultHpa,
    validate: validateHpa,
  },
  {
    group: "scheduling.k8s.io",
    version: "v1",
    resource: "priorityclasses",
    kind: "PriorityClass",
    namespaced: false,
    shortNames: ["pc"],
    generation: "create",
    defaults: (pc) => setIfAbsent(pc, "preemptionPolicy", "PreemptLowerPriority"),
    validate: validatePriorityClass,
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    resource: "storageclasses",
    kind: "StorageClass",
    namespaced: false,
    shortNames: ["sc"],
    defaults: (sc) => {
      setIfAbsent(sc, "reclaimPolicy", "Delete");
      setIfAbsent(sc, "volumeBindingMode", "Immediate");
    },
    validate: validateStorageClass,
  },
];
