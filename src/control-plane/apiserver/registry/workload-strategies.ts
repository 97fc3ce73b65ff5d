import type { KubeObject } from "../../../apimachinery/object.js";
import { cloneJson, isJsonObject, type JsonObject, jsonEqual } from "../json.js";
import { decodeError, type FieldErrors } from "../validation/field-errors.js";
import { jsonType } from "./data-strategies.js";
import { defaultDeploymentSpec, defaultPodOwnSpec, defaultReplicaSetSpec } from "./defaults.js";
import { BasicStrategy } from "./strategy.js";

function spec(obj: KubeObject): JsonObject | undefined {
  return isJsonObject(obj.spec) ? obj.spec : undefined;
}

function requireSpecObject(obj: KubeObject, kind: string, group: string): JsonObject {
  if (obj.spec !== undefined && !isJsonObject(obj.spec)) {
    const version = group ? `${group}/v1` : "v1";
    throw decodeError(
      kind,
      version,
      `json: cannot unmarshal ${jsonType(obj.spec)} into Go struct field ${kind}.spec`,
    );
  }
  if (!obj.spec) obj.spec = {};
  return obj.spec as JsonObject;
}

/**
 * Pod (core/v1). The embedded server has no scheduler and no kubelet, so pods stay `Pending` and unscheduled;
 * they are not graceful-deleted either (a DELETE removes them at once, as for a pod never bound to a node).
 * Validation checks only that `spec.containers` lists named containers with images.
 */
export class PodStrategy extends BasicStrategy {
  constructor() {
    super({
      hasStatus: true,
      tracksGeneration: true,
      extraFieldLabels: [
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "spec.hostNetwork",
        "status.phase",
        "status.podIP",
        "status.nominatedNodeName",
      ],
    });
  }

  override decode(obj: KubeObject): void {
    defaultPodOwnSpec(requireSpecObject(obj, "Pod", ""));
  }

  override prepareForCreate(obj: KubeObject): void {
    obj.status = { phase: "Pending", qosClass: "BestEffort" };
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    if (old && !jsonEqual(mutablePodFieldsMasked(spec(obj)), mutablePodFieldsMasked(spec(old)))) {
      errs.forbidden(
        "spec",
        "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds`",
      );
    }
    validateContainers(spec(obj), "spec", errs);
  }
}

/** Checks a pod spec at `path` lists named containers with images (`ValidatePodSpec`, simplified). */
export function validateContainers(podSpec: JsonObject | undefined, path: string, errs: FieldErrors): void {
  const containers = podSpec?.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errs.required(`${path}.containers`);
    return;
  }
  containers.forEach((c, i) => {
    const at = `${path}.containers[${i}]`;
    if (!isJsonObject(c)) errs.invalid(at, c, "must be an object");
    else {
      if (!c.name) errs.required(`${at}.name`);
      if (!c.image) errs.required(`${at}.image`);
    }
  });
}

/** A pod spec with the fields an update may change blanked out (`ValidatePodUpdate`'s mutable set, simplified). */
function mutablePodFieldsMasked(s: JsonObject | undefined): JsonObject {
  const copy = cloneJson(s ?? {});
  for (const f of ["activeDeadlineSeconds", "tolerations", "terminationGracePeriodSeconds"]) delete copy[f];
  for (const list of ["containers", "initContainers"]) {
    const cs = copy[list];
    if (Array.isArray(cs)) for (const c of cs) if (isJsonObject(c)) delete c.image;
  }
  return copy;
}

/**
 * `ValidateDeploymentSpec`/`ValidateReplicaSetSpec`, simplified: `spec.selector` is required and not empty; the
 * template's labels must match its matchLabels (a missing selector matches nothing, so that is reported too);
 * the template's pod spec needs containers; replicas is a non-negative integer. All errors are collected, as
 * kube-apiserver reports them together.
 */
function validateSelectorAndTemplate(obj: KubeObject, errs: FieldErrors): void {
  const s = spec(obj) ?? {};
  const selector = s.selector;
  const template = isJsonObject(s.template) ? s.template : {};
  const meta = isJsonObject(template.metadata) ? template.metadata : {};
  const labels = isJsonObject(meta.labels) ? meta.labels : {};
  let matches: boolean;
  if (!isJsonObject(selector)) {
    errs.required("spec.selector");
    matches = false;
  } else {
    const matchLabels = isJsonObject(selector.matchLabels) ? selector.matchLabels : {};
    if (Object.keys(matchLabels).length === 0 && !Array.isArray(selector.matchExpressions)) {
      errs.invalid("spec.selector", selector, "empty selector is invalid for deployment");
    }
    matches = Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  }
  if (!matches) {
    errs.invalid("spec.template.metadata.labels", meta.labels, "`selector` does not match template `labels`");
  }
  validateContainers(isJsonObject(template.spec) ? template.spec : undefined, "spec.template.spec", errs);
  if (s.replicas !== undefined && (!Number.isInteger(s.replicas) || (s.replicas as number) < 0)) {
    errs.invalid("spec.replicas", s.replicas, "must be greater than or equal to 0");
  }
}

/**
 * ReplicaSet and Deployment (apps/v1): stored only, no controller runs them here. `spec.replicas` defaults
 * to 1; status is a subresource; the generation bumps on spec changes, and for Deployments also on annotation
 * changes (annotations are copied to ReplicaSets). A `/status` write keeps the stored labels.
 */
export class ReplicatedStrategy extends BasicStrategy {
  constructor(
    private readonly kind: "Deployment" | "ReplicaSet",
    private readonly annotationsBumpGeneration: boolean,
  ) {
    super({
      hasStatus: true,
      tracksGeneration: true,
      extraFieldLabels: kind === "ReplicaSet" ? ["status.replicas"] : [],
    });
  }

  override decode(obj: KubeObject): void {
    const s = requireSpecObject(obj, this.kind, "apps");
    if (s.replicas !== undefined && typeof s.replicas !== "number") {
      throw decodeError(
        this.kind,
        "apps/v1",
        `json: cannot unmarshal ${jsonType(s.replicas)} into Go struct field ${this.kind}Spec.spec.replicas of type int32`,
      );
    }
    if (this.kind === "Deployment") defaultDeploymentSpec(s);
    else defaultReplicaSetSpec(s);
  }

  override prepareForCreate(obj: KubeObject): void {
    delete obj.status;
  }

  override prepareForStatusUpdate(body: KubeObject, old: KubeObject): KubeObject {
    const next = super.prepareForStatusUpdate(body, old);
    if (next.metadata) {
      if (old.metadata?.labels === undefined) delete next.metadata.labels;
      else next.metadata.labels = old.metadata.labels;
    }
    return next;
  }

  override bumpsGeneration(obj: KubeObject, old: KubeObject): boolean {
    if (super.bumpsGeneration(obj, old)) return true;
    return this.annotationsBumpGeneration && !jsonEqual(obj.metadata?.annotations, old.metadata?.annotations);
  }

  override validate(obj: KubeObject, errs: FieldErrors): void {
    validateSelectorAndTemplate(obj, errs);
  }
}

/**
 * Lease (coordination.k8s.io/v1): `spec` fields must have their Go types (400 BadRequest otherwise), and an update
 * must carry `metadata.resourceVersion` (kube's lease strategy forbids unconditional updates: 422 otherwise), so a
 * leader-election write can never silently overwrite another candidate's.
 */
export class LeaseStrategy extends BasicStrategy {
  constructor() {
    super({ allowUnconditionalUpdate: false });
  }

  override decode(obj: KubeObject): void {
    const s = requireSpecObject(obj, "Lease", "coordination.k8s.io");
    const types: Record<string, "string" | "integer" | "time"> = {
      holderIdentity: "string",
      leaseDurationSeconds: "integer",
      acquireTime: "time",
      renewTime: "time",
      leaseTransitions: "integer",
      strategy: "string",
      preferredHolder: "string",
    };
    for (const [field, type] of Object.entries(types)) {
      const v = s[field];
      if (v === undefined || v === null) continue;
      const ok =
        type === "integer"
          ? Number.isInteger(v)
          : type === "string"
            ? typeof v === "string"
            : typeof v === "string" && !Number.isNaN(Date.parse(v));
      if (!ok) {
        const goType = type === "integer" ? "int32" : type === "time" ? "v1.MicroTime" : "string";
        throw decodeError(
          "Lease",
          "coordination.k8s.io/v1",
          `json: cannot unmarshal ${JSON.stringify(v)} into Go struct field LeaseSpec.spec.${field} of type ${goType}`,
        );
      }
    }
  }
}
