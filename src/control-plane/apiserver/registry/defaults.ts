import { isJsonObject, type JsonObject } from "../json.js";

/**
 * Server-side defaulting of built-in kinds (the `SetDefaults_*` functions of `k8s.io/kubernetes/pkg/apis/*`),
 * reduced to the fields a controller most often meets: a controller that compares its desired spec with the
 * stored one must expect these fields to appear, or it will update forever. Every function fills only what is
 * absent and mutates its argument.
 */

/** Sets `obj[key]` when it is absent or null (what a `SetDefaults_*` function does for a nil field). */
export function setIfAbsent(obj: JsonObject, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** `obj[key]` as an object, created empty when absent or not an object. */
export function objectAt(obj: JsonObject, key: string): JsonObject {
  if (!isJsonObject(obj[key])) obj[key] = {};
  return obj[key] as JsonObject;
}

/** Container defaults: termination message path and policy, image pull policy (`Always` for `:latest`). */
function defaultContainer(c: JsonObject): void {
  setIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
  setIfAbsent(c, "terminationMessagePolicy", "File");
  if (c.imagePullPolicy === undefined && typeof c.image === "string") {
    const lastSegment = c.image.split("/").pop() ?? "";
    const tag = lastSegment.includes("@") ? "digest" : (lastSegment.split(":")[1] ?? "latest");
    c.imagePullPolicy = tag === "latest" ? "Always" : "IfNotPresent";
  }
  setIfAbsent(c, "resources", {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isJsonObject(p)) setIfAbsent(p, "protocol", "TCP");
}

/**
 * `SetDefaults_PodSpec` plus container defaults: what every pod spec gets, a Pod's own or a template's (a
 * template never gets `enableServiceLinks`, which `SetDefaults_Pod` sets on Pods only).
 */
export function defaultPodSpec(spec: JsonObject): void {
  setIfAbsent(spec, "restartPolicy", "Always");
  setIfAbsent(spec, "dnsPolicy", "ClusterFirst");
  setIfAbsent(spec, "terminationGracePeriodSeconds", 30);
  setIfAbsent(spec, "schedulerName", "default-scheduler");
  setIfAbsent(spec, "securityContext", {});
  for (const list of ["containers", "initContainers"]) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) if (isJsonObject(c)) defaultContainer(c);
  }
}

/** A Pod's spec (`SetDefaults_Pod` and `SetDefaults_PodSpec`): the pod spec defaults and `enableServiceLinks`. */
export function defaultPodOwnSpec(spec: JsonObject): void {
  defaultPodSpec(spec);
  setIfAbsent(spec, "enableServiceLinks", true);
}

/** A pod template (`spec.template` of a workload): the pod spec defaults of its `spec`. */
export function defaultPodTemplate(template: unknown): void {
  if (isJsonObject(template)) defaultPodSpec(objectAt(template, "spec"));
}

/** ReplicaSet (apps/v1): `replicas: 1` and pod template defaults. */
export function defaultReplicaSetSpec(spec: JsonObject): void {
  setIfAbsent(spec, "replicas", 1);
  defaultPodTemplate(spec.template);
}

/**
 * Deployment (apps/v1): `replicas: 1`, RollingUpdate with 25% surge/unavailable, `revisionHistoryLimit: 10`,
 * `progressDeadlineSeconds: 600`, and pod template defaults.
 */
export function defaultDeploymentSpec(spec: JsonObject): void {
  defaultReplicaSetSpec(spec);
  const strategy = objectAt(spec, "strategy");
  setIfAbsent(strategy, "type", "RollingUpdate");
  if (strategy.type === "RollingUpdate") {
    const ru = objectAt(strategy, "rollingUpdate");
    setIfAbsent(ru, "maxUnavailable", "25%");
    setIfAbsent(ru, "maxSurge", "25%");
  }
  setIfAbsent(spec, "revisionHistoryLimit", 10);
  setIfAbsent(spec, "progressDeadlineSeconds", 600);
}

/** Service (core/v1): type ClusterIP, sessionAffinity None, ports' protocol TCP and targetPort = port. */
export function defaultServiceSpec(spec: JsonObject): void {
  setIfAbsent(spec, "type", "ClusterIP");
  setIfAbsent(spec, "sessionAffinity", "None");
  if (spec.type === "ClusterIP" || spec.type === "NodePort" || spec.type === "LoadBalancer") {
    setIfAbsent(spec, "internalTrafficPolicy", "Cluster");
  }
  if (Array.isArray(spec.ports)) {
    for (const p of spec.ports) {
      if (!isJsonObject(p)) continue;
      setIfAbsent(p, "protocol", "TCP");
      if (p.targetPort === undefined && p.port !== undefined) p.targetPort = p.port;
    }
  }
}
