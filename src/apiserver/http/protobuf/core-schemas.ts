/**
 * k8s.io/api/core/v1 messages (core/v1/generated.proto) for the kinds `kubectl create namespace | configmap |
 * secret | service` send: Namespace, ConfigMap, Secret, Service. Field numbers checked against generated.proto
 * and kubectl 1.32's request bodies. Every top-level object is metadata=1 followed by its own fields.
 */

import { bool, int32, intOrString, map, message, msg, msgs, PTR, str, strs } from "./message-schema.js";
import { metadataField } from "./meta-schemas.js";

/** v1.Namespace: metadata=1, spec=2 (finalizers=1), status=3 (phase=1). */
export const Namespace = message("Namespace", {
  1: metadataField,
  2: msg("spec", message("NamespaceSpec", { 1: strs("finalizers") })),
  3: msg("status", message("NamespaceStatus", { 1: str("phase") })),
});

/** v1.ConfigMap: metadata=1, data=2, binaryData=3 (bytes, base64 in JSON), immutable=4. */
export const ConfigMap = message("ConfigMap", {
  1: metadataField,
  2: map("data"),
  3: map("binaryData", "bytes"),
  4: bool("immutable", PTR),
});

/** v1.Secret: metadata=1, data=2 (bytes, base64 in JSON), type=3, stringData=4, immutable=5. */
export const Secret = message("Secret", {
  1: metadataField,
  2: map("data", "bytes"),
  3: str("type"),
  4: map("stringData"),
  5: bool("immutable", PTR),
});

/** v1.ServicePort: name=1, protocol=2, port=3, targetPort=4 (IntOrString), nodePort=5, appProtocol=6. */
export const ServicePort = message("ServicePort", {
  1: str("name"),
  2: str("protocol"),
  3: int32("port"),
  4: intOrString("targetPort"),
  5: int32("nodePort"),
  6: str("appProtocol", PTR),
});

/** v1.ServiceSpec: the fields `kubectl create service` writes, and the other plain ones. */
export const ServiceSpec = message("ServiceSpec", {
  1: msgs("ports", ServicePort),
  2: map("selector"),
  3: str("clusterIP"),
  4: str("type"),
  5: strs("externalIPs"),
  7: str("sessionAffinity"),
  8: str("loadBalancerIP"),
  9: strs("loadBalancerSourceRanges"),
  10: str("externalName"),
  11: str("externalTrafficPolicy"),
  12: int32("healthCheckNodePort"),
  13: bool("publishNotReadyAddresses"),
  17: str("ipFamilyPolicy", PTR),
  18: strs("clusterIPs"),
  19: strs("ipFamilies"),
  20: bool("allocateLoadBalancerNodePorts", PTR),
  21: str("loadBalancerClass", PTR),
  22: str("internalTrafficPolicy", PTR),
});

/** v1.ServiceStatus: loadBalancer=1 (an empty LoadBalancerStatus on create; ingress is not decoded). */
export const ServiceStatus = message("ServiceStatus", {
  1: msg("loadBalancer", message("LoadBalancerStatus", {})),
});

/** v1.Service: metadata=1, spec=2, status=3. */
export const Service = message("Service", {
  1: metadataField,
  2: msg("spec", ServiceSpec),
  3: msg("status", ServiceStatus),
});
