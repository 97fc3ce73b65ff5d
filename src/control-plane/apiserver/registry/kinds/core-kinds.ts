/**
 * The core/v1 kinds served from data (besides the hand-written Namespace, ConfigMap, Secret, Pod, Service and
 * Event): their strategies' status and generation rules, `SetDefaults_*` defaults and first validation errors, as
 * kube-apiserver 1.34 answers them (`pkg/registry/core/*`, `pkg/apis/core/v1/defaults.go`).
 */
import { isIP } from "node:net";
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { defaultPodTemplate, objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { at, itemsAt, requireFields, validatePodTemplate, validateSelectedTemplate } from "./fields.js";

const core = (resource: string, kind: string, rest: Partial<KindSpec> = {}): KindSpec => ({
  group: "",
  version: "v1",
  resource,
  kind,
  namespaced: true,
  ...rest,
});

/** `SetDefaults_PersistentVolumeClaim(Spec)`: `volumeMode: Filesystem`, a Pending phase. */
export function defaultClaim(claim: JsonObject): void {
  setIfAbsent(objectAt(claim, "spec"), "volumeMode", "Filesystem");
  setIfAbsent(objectAt(claim, "status"), "phase", "Pending");
}

/** `ValidatePersistentVolumeClaimSpec`: access modes and a storage request (`spec.resources[storage]`). */
function validateClaimSpec(claim: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
  if (!Array.isArray(at(claim, "spec.accessModes")) || (at(claim, "spec.accessModes") as []).length === 0) {
    errs.required("spec.accessModes", "at least 1 access mode is required");
  }
  if (at(claim, "spec.resources.requests.storage") === undefined) errs.required("spec.resources[storage]");
  if (old) {
    const mutable = (o: KubeObject) => {
      const { resources: _r, volumeAttributesClassName: _v, ...rest } = (o.spec ?? {}) as JsonObject;
      return JSON.stringify(rest);
    };
    if (mutable(claim) !== mutable(old)) {
      errs.forbidden(
        "spec",
        "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
      );
    }
  }
}

/** `SetDefaults_EndpointPort`-style: every port's protocol is TCP unless set. */
function defaultPortProtocols(ports: unknown): void {
  if (Array.isArray(ports)) for (const p of ports) if (isJsonObject(p)) setIfAbsent(p, "protocol", "TCP");
}

/** `ValidateEndpoints`: addresses are IPs, ports within 1..65535. */
function validateEndpoints(obj: KubeObject, errs: FieldErrors): void {
  for (const [subset, i] of itemsAt(obj, "subsets")) {
    for (const list of ["addresses", "notReadyAddresses"]) {
      for (const [address, j] of itemsAt(subset, list)) {
        const path = `subsets[${i}].${list}[${j}].ip`;
        if (typeof address.ip !== "string" || isIP(address.ip) === 0) {
          errs.invalid(
            path,
            address.ip ?? "",
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
          );
        }
      }
    }
    for (const [port, j] of itemsAt(subset, "ports"))
      validatePort(port.port, `subsets[${i}].ports[${j}].port`, errs);
  }
}

function validatePort(port: unknown, path: string, errs: FieldErrors): void {
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) {
    errs.invalid(path, port ?? 0, "must be between 1 and 65535, inclusive");
  }
}

/** `SetDefaults_LimitRangeItem`: a container's default limit from max, default request from default then min. */
function defaultLimitRange(obj: KubeObject): void {
  for (const [item] of itemsAt(obj, "spec.limits")) {
    if (item.type !== "Container") continue;
    const fill = (to: string, from: string) => {
      const source = item[from];
      if (!isJsonObject(source)) return;
      const target = objectAt(item, to);
      for (const [k, v] of Object.entries(source)) setIfAbsent(target, k, v);
    };
    fill("default", "max");
    fill("defaultRequest", "default");
    fill("defaultRequest", "min");
  }
}

const LIMIT_TYPES = ["Pod", "Container", "PersistentVolumeClaim"];

/** `ValidateLimitRange`: each item's type is a standard limit type (or a qualified extended one). */
function validateLimitRange(obj: KubeObject, errs: FieldErrors): void {
  for (const [item, i] of itemsAt(obj, "spec.limits")) {
    if (typeof item.type !== "string" || (!LIMIT_TYPES.includes(item.type) && !item.type.includes("/"))) {
      errs.invalid(
        `spec.limits[${i}].type`,
        item.type ?? "",
        "must be a standard limit type or fully qualified",
      );
    }
  }
}

/** `ValidateResourceQuota`: every hard limit is a non-negative quantity. */
function validateQuota(obj: KubeObject, errs: FieldErrors): void {
  const hard = at(obj, "spec.hard");
  if (!isJsonObject(hard)) return;
  for (const [k, v] of Object.entries(hard)) {
    if (String(v).trim().startsWith("-")) {
      errs.invalid(`spec.hard[${k}]`, v, "must be greater than or equal to 0");
    }
  }
}

/** The core/v1 kinds served from data. */
export const CORE_KINDS: readonly KindSpec[] = [
  core("serviceaccounts", "ServiceAccount", { shortNames: ["sa"] }),
  core("persistentvolumeclaims", "PersistentVolumeClaim", {
    shortNames: ["pvc"],
    status: true,
    initialStatus: () => ({ phase: "Pending" }),
    defaults: defaultClaim,
    validate: validateClaimSpec,
  }),
  core("persistentvolumes", "PersistentVolume", {
    namespaced: false,
    shortNames: ["pv"],
    status: true,
    initialStatus: () => ({ phase: "Pending" }),
    defaults: (pv) => {
      const spec = objectAt(pv, "spec");
      setIfAbsent(spec, "persistentVolumeReclaimPolicy", "Retain");
      setIfAbsent(spec, "volumeMode", "Filesystem");
      if (isJsonObject(spec.hostPath)) setIfAbsent(spec.hostPath, "type", "");
    },
    validate: (pv, errs) => requireFields(pv, errs, "spec.capacity", "spec.accessModes"),
  }),
  core("endpoints", "Endpoints", {
    shortNames: ["ep"],
    defaults: (ep) => {
      for (const [subset] of itemsAt(ep, "subsets")) defaultPortProtocols(subset.ports);
    },
    validate: validateEndpoints,
  }),
  core("resourcequotas", "ResourceQuota", { shortNames: ["quota"], status: true, validate: validateQuota }),
  core("limitranges", "LimitRange", {
    shortNames: ["limits"],
    defaults: defaultLimitRange,
    validate: validateLimitRange,
  }),
  core("podtemplates", "PodTemplate", {
    generation: "content",
    defaults: (pt) => defaultPodTemplate(pt.template),
    validate: (pt, errs) => validatePodTemplate(pt, "template", errs),
  }),
  core("replicationcontrollers", "ReplicationController", {
    shortNames: ["rc"],
    categories: ["all"],
    status: true,
    generation: "spec",
    defaults: (rc) => {
      const spec = objectAt(rc, "spec");
      const labels = at(spec, "template.metadata.labels");
      if (isJsonObject(labels)) {
        if (!isJsonObject(spec.selector) || Object.keys(spec.selector).length === 0)
          spec.selector = { ...labels };
        const meta = objectAt(rc, "metadata");
        if (!isJsonObject(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
      }
      setIfAbsent(spec, "replicas", 1);
      defaultPodTemplate(spec.template);
    },
    validate: (rc, errs) => {
      const selector = at(rc, "spec.selector");
      const asSet = { ...rc, spec: { ...(rc.spec as JsonObject), selector: { matchLabels: selector } } };
      validateSelectedTemplate(isJsonObject(selector) ? asSet : rc, errs, ["Always"]);
    },
  }),
  core("nodes", "Node", {
    namespaced: false,
    shortNames: ["no"],
    status: true,
    createKeepsStatus: true,
    // The TaintNodesByCondition admission plugin: a new node is not ready until its kubelet says so.
    prepareForCreate: (node) => {
      const spec = objectAt(node, "spec");
      const taints = Array.isArray(spec.taints) ? spec.taints : [];
      if (!taints.some((t) => isJsonObject(t) && t.key === "node.kubernetes.io/not-ready")) {
        spec.taints = [...taints, { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }];
      }
    },
  }),
];
