/**
 * networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy, and discovery.k8s.io/v1 EndpointSlice, served
 * from data after their strategies and `SetDefaults_*` (`pkg/apis/networking/v1`, `pkg/apis/discovery/v1`).
 * Stored only: no ingress controller, network plugin or EndpointSlice controller acts on them here.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { at, immutableFields, isMissing, itemsAt, requireFields } from "./fields.js";

const PATH_TYPES = ["Exact", "ImplementationSpecific", "Prefix"];

/** `ValidateIngressSpec`, the parts a learner meets: rules or a default backend, each path's pathType. */
function validateIngress(ing: KubeObject, errs: FieldErrors): void {
  const spec = objectAt({ ...ing }, "spec");
  if (isMissing(spec.rules) && !isJsonObject(spec.defaultBackend)) {
    errs.invalid("spec", spec, "either `defaultBackend` or `rules` must be specified");
  }
  for (const [rule, i] of itemsAt(spec, "rules")) {
    for (const [p, j] of itemsAt(rule, "http.paths")) {
      const path = `spec.rules[${i}].http.paths[${j}]`;
      if (isMissing(p.pathType)) errs.required(`${path}.pathType`, "pathType must be specified");
      else if (!PATH_TYPES.includes(String(p.pathType)))
        errs.notSupported(`${path}.pathType`, p.pathType, PATH_TYPES);
      else if (p.pathType !== "ImplementationSpecific" && !String(p.path ?? "").startsWith("/")) {
        errs.invalid(`${path}.path`, p.path ?? "", "must be an absolute path");
      }
      if (!isJsonObject(at(p, "backend.service")) && !isJsonObject(at(p, "backend.resource"))) {
        errs.invalid(`${path}.backend`, p.backend ?? null, "one backend must be specified");
      }
    }
  }
}

/** `SetDefaults_NetworkPolicy`: policyTypes Ingress (plus Egress with egress rules); ports' protocol TCP. */
function defaultNetworkPolicy(np: KubeObject): void {
  const spec = objectAt(np, "spec");
  for (const direction of ["ingress", "egress"]) {
    for (const [rule] of itemsAt(spec, direction)) {
      for (const [port] of itemsAt(rule, "ports")) setIfAbsent(port, "protocol", "TCP");
    }
  }
  if (isMissing(spec.policyTypes)) {
    spec.policyTypes = isMissing(spec.egress) ? ["Ingress"] : ["Ingress", "Egress"];
  }
}

const POLICY_TYPES = ["Ingress", "Egress"];

function validateNetworkPolicy(np: KubeObject, errs: FieldErrors): void {
  const types = at(np, "spec.policyTypes");
  if (!Array.isArray(types)) return;
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(String(t))) errs.notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES);
  });
  if (types.length > POLICY_TYPES.length) {
    errs.invalid("spec.policyTypes", types, "may not specify more than two policyTypes");
  }
}

const ADDRESS_TYPES = ["IPv4", "IPv6", "FQDN"];

/** The kinds of networking.k8s.io/v1 and discovery.k8s.io/v1 served from data. */
export const NETWORK_KINDS: readonly KindSpec[] = [
  {
    group: "networking.k8s.io",
    version: "v1",
    resource: "ingresses",
    kind: "Ingress",
    namespaced: true,
    shortNames: ["ing"],
    status: true,
    generation: "spec",
    validate: validateIngress,
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    resource: "ingressclasses",
    kind: "IngressClass",
    namespaced: false,
    generation: "spec",
    defaults: (ic) => {
      const parameters = at(ic, "spec.parameters");
      if (isJsonObject(parameters)) setIfAbsent(parameters, "scope", "Cluster");
    },
    validate: (ic, errs, old) => {
      requireFields(ic, errs, "spec.controller");
      immutableFields(ic, old, errs, "spec.controller");
    },
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    resource: "networkpolicies",
    kind: "NetworkPolicy",
    namespaced: true,
    shortNames: ["netpol"],
    generation: "spec",
    defaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
  },
  {
    group: "discovery.k8s.io",
    version: "v1",
    resource: "endpointslices",
    kind: "EndpointSlice",
    namespaced: true,
    generation: "content",
    defaults: (slice) => {
      for (const [port] of itemsAt(slice, "ports")) {
        setIfAbsent(port, "protocol", "TCP");
        setIfAbsent(port, "name", "");
      }
    },
    validate: (slice, errs, old) => {
      if (isMissing(slice.addressType)) errs.required("addressType");
      else if (!ADDRESS_TYPES.includes(String(slice.addressType))) {
        errs.notSupported("addressType", slice.addressType, ADDRESS_TYPES);
      }
      immutableFields(slice, old, errs, "addressType");
    },
  },
];
