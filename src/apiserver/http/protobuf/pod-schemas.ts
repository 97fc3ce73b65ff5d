/**
 * k8s.io/api/core/v1 Pod messages (core/v1/generated.proto): Container and PodSpec with the fields `kubectl
 * create deployment` and `kubectl run` fill in (numbers checked against generated.proto and kubectl 1.32's
 * bytes), plus the common plain ones. Volumes, probes, env valueFrom, affinity and tolerations are not in the
 * table: such a body gets 415.
 */

import { bool, int32, int64, map, message, msg, msgs, PTR, str, strs } from "./message-schema.js";
import { metadataField } from "./meta-schemas.js";

/** v1.ContainerPort: name=1, hostPort=2, containerPort=3, protocol=4, hostIP=5. */
export const ContainerPort = message("ContainerPort", {
  1: str("name"),
  2: int32("hostPort"),
  3: int32("containerPort"),
  4: str("protocol"),
  5: str("hostIP"),
});

/** v1.EnvVar: name=1, value=2 (valueFrom=3 is not decoded). */
export const EnvVar = message("EnvVar", { 1: str("name"), 2: str("value") });

/** v1.ResourceRequirements: limits=1, requests=2 (map<string, Quantity>). */
export const ResourceRequirements = message("ResourceRequirements", {
  1: map("limits", "quantity"),
  2: map("requests", "quantity"),
});

/** v1.VolumeMount: name=1, readOnly=2, mountPath=3, subPath=4, subPathExpr=6. */
export const VolumeMount = message("VolumeMount", {
  1: str("name"),
  2: bool("readOnly"),
  3: str("mountPath"),
  4: str("subPath"),
  6: str("subPathExpr"),
});

/** v1.SecurityContext (container): the pointer booleans and ids. */
export const SecurityContext = message("SecurityContext", {
  2: bool("privileged", PTR),
  4: int64("runAsUser", PTR),
  5: bool("runAsNonRoot", PTR),
  6: bool("readOnlyRootFilesystem", PTR),
  7: bool("allowPrivilegeEscalation", PTR),
  8: int64("runAsGroup", PTR),
});

/** v1.Container. */
export const Container = message("Container", {
  1: str("name"),
  2: str("image"),
  3: strs("command"),
  4: strs("args"),
  5: str("workingDir"),
  6: msgs("ports", ContainerPort),
  7: msgs("env", EnvVar),
  8: msg("resources", ResourceRequirements),
  9: msgs("volumeMounts", VolumeMount),
  13: str("terminationMessagePath"),
  14: str("imagePullPolicy"),
  15: msg("securityContext", SecurityContext),
  16: bool("stdin"),
  17: bool("stdinOnce"),
  18: bool("tty"),
  20: str("terminationMessagePolicy"),
});

/** v1.PodSecurityContext: runAsUser=2, runAsNonRoot=3, fsGroup=5, runAsGroup=6. */
export const PodSecurityContext = message("PodSecurityContext", {
  2: int64("runAsUser", PTR),
  3: bool("runAsNonRoot", PTR),
  5: int64("fsGroup", PTR),
  6: int64("runAsGroup", PTR),
});

/** v1.PodSpec. */
export const PodSpec = message("PodSpec", {
  2: msgs("containers", Container),
  3: str("restartPolicy"),
  4: int64("terminationGracePeriodSeconds", PTR),
  5: int64("activeDeadlineSeconds", PTR),
  6: str("dnsPolicy"),
  7: map("nodeSelector"),
  8: str("serviceAccountName"),
  9: str("serviceAccount"),
  10: str("nodeName"),
  11: bool("hostNetwork"),
  12: bool("hostPID"),
  13: bool("hostIPC"),
  14: msg("securityContext", PodSecurityContext),
  15: msgs("imagePullSecrets", message("LocalObjectReference", { 1: str("name") })),
  16: str("hostname"),
  17: str("subdomain"),
  19: str("schedulerName"),
  20: msgs("initContainers", Container),
  21: bool("automountServiceAccountToken", PTR),
  24: str("priorityClassName"),
  25: int32("priority", PTR),
  30: bool("enableServiceLinks", PTR),
  31: str("preemptionPolicy", PTR),
});

/** v1.PodTemplateSpec: metadata=1, spec=2. */
export const PodTemplateSpec = message("PodTemplateSpec", { 1: metadataField, 2: msg("spec", PodSpec) });

/** v1.PodStatus: phase=1, message=3, reason=4, hostIP=5, podIP=6 (conditions and statuses not decoded). */
export const PodStatus = message("PodStatus", {
  1: str("phase"),
  3: str("message"),
  4: str("reason"),
  5: str("hostIP"),
  6: str("podIP"),
});

/** v1.Pod: metadata=1, spec=2, status=3. */
export const Pod = message("Pod", { 1: metadataField, 2: msg("spec", PodSpec), 3: msg("status", PodStatus) });
