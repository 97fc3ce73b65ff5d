/**
 * k8s.io/api/apps/v1 messages (apps/v1/generated.proto): Deployment and ReplicaSet. Numbers checked against
 * generated.proto and `kubectl create deployment`'s bytes (kubectl 1.32).
 */

import { bool, int32, int64, intOrString, message, msg, PTR, str } from "./message-schema.js";
import { LabelSelector, metadataField } from "./meta-schemas.js";
import { PodTemplateSpec } from "./pod-schemas.js";

/** apps/v1.DeploymentStrategy: type=1, rollingUpdate=2 (maxUnavailable=1, maxSurge=2). */
export const DeploymentStrategy = message("DeploymentStrategy", {
  1: str("type"),
  2: msg(
    "rollingUpdate",
    message("RollingUpdateDeployment", {
      1: intOrString("maxUnavailable", PTR),
      2: intOrString("maxSurge", PTR),
    }),
  ),
});

/** apps/v1.Deployment: metadata=1, spec=2, status=3 (conditions not decoded). */
export const Deployment = message("Deployment", {
  1: metadataField,
  2: msg(
    "spec",
    message("DeploymentSpec", {
      1: int32("replicas", PTR),
      2: msg("selector", LabelSelector),
      3: msg("template", PodTemplateSpec),
      4: msg("strategy", DeploymentStrategy),
      5: int32("minReadySeconds"),
      6: int32("revisionHistoryLimit", PTR),
      7: bool("paused"),
      9: int32("progressDeadlineSeconds", PTR),
      10: str("podReplacementPolicy", PTR),
    }),
  ),
  3: msg(
    "status",
    message("DeploymentStatus", {
      1: int64("observedGeneration"),
      2: int32("replicas"),
      3: int32("updatedReplicas"),
      4: int32("availableReplicas"),
      5: int32("unavailableReplicas"),
      7: int32("readyReplicas"),
      8: int32("collisionCount", PTR),
      9: int32("terminatingReplicas", PTR),
    }),
  ),
});

/** apps/v1.ReplicaSet: metadata=1, spec=2 (replicas=1, selector=2, template=3, minReadySeconds=4), status=3. */
export const ReplicaSet = message("ReplicaSet", {
  1: metadataField,
  2: msg(
    "spec",
    message("ReplicaSetSpec", {
      1: int32("replicas", PTR),
      2: msg("selector", LabelSelector),
      3: msg("template", PodTemplateSpec),
      4: int32("minReadySeconds"),
    }),
  ),
  3: msg(
    "status",
    message("ReplicaSetStatus", {
      1: int32("replicas"),
      2: int32("fullyLabeledReplicas"),
      3: int64("observedGeneration"),
      4: int32("readyReplicas"),
      5: int32("availableReplicas"),
      7: int32("terminatingReplicas", PTR),
    }),
  ),
});
