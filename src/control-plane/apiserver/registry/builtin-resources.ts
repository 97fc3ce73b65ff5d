import type { Clock } from "../../../clock/clock.js";
import { CrdStrategy } from "./crd.js";
import type { CrdLifecycle } from "./crd-lifecycle.js";
import { ConfigMapStrategy, SecretStrategy } from "./data-strategies.js";
import { EventStrategy } from "./event-strategy.js";
import { eventsV1Resource } from "./events-v1.js";
import { servedKind } from "./kind-spec-strategy.js";
import { COMMON_KINDS } from "./kinds/index.js";
import { NamespaceStrategy } from "./namespace-strategy.js";
import { defineResourceType } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";
import { ServiceStrategy } from "./service-strategy.js";
import { LeaseStrategy, PodStrategy, ReplicatedStrategy } from "./workload-strategies.js";

/**
 * The built-in kinds the embedded server serves, with their write strategies: the hand-written ones here, then
 * the common kinds served from data (`kinds/`); `crds` is what stored CRDs drive (their kinds served and purged).
 */
export function builtinResources(clock: Clock, crds?: CrdLifecycle): ServedResource[] {
  return [
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "namespaces",
        kind: "Namespace",
        namespaced: false,
        shortNames: ["ns"],
        subresources: ["status", "finalize"],
        verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
      }),
      strategy: new NamespaceStrategy(),
    },
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "configmaps",
        kind: "ConfigMap",
        namespaced: true,
        shortNames: ["cm"],
      }),
      strategy: new ConfigMapStrategy(),
    },
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "secrets",
        kind: "Secret",
        namespaced: true,
      }),
      strategy: new SecretStrategy(),
    },
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "pods",
        kind: "Pod",
        namespaced: true,
        shortNames: ["po"],
        categories: ["all"],
        subresources: ["status"],
      }),
      strategy: new PodStrategy(),
    },
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "services",
        kind: "Service",
        namespaced: true,
        shortNames: ["svc"],
        categories: ["all"],
        subresources: ["status"],
        verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      }),
      strategy: new ServiceStrategy(),
    },
    {
      type: defineResourceType({
        group: "",
        version: "v1",
        resource: "events",
        kind: "Event",
        namespaced: true,
        shortNames: ["ev"],
      }),
      strategy: new EventStrategy(),
    },
    eventsV1Resource(),
    {
      type: defineResourceType({
        group: "coordination.k8s.io",
        version: "v1",
        resource: "leases",
        kind: "Lease",
        namespaced: true,
      }),
      strategy: new LeaseStrategy(),
    },
    {
      type: defineResourceType({
        group: "apps",
        version: "v1",
        resource: "deployments",
        kind: "Deployment",
        namespaced: true,
        shortNames: ["deploy"],
        categories: ["all"],
        subresources: ["status"],
      }),
      strategy: new ReplicatedStrategy("Deployment", true),
    },
    {
      type: defineResourceType({
        group: "apps",
        version: "v1",
        resource: "replicasets",
        kind: "ReplicaSet",
        namespaced: true,
        shortNames: ["rs"],
        categories: ["all"],
        subresources: ["status"],
      }),
      strategy: new ReplicatedStrategy("ReplicaSet", false),
    },
    {
      type: defineResourceType({
        group: "apiextensions.k8s.io",
        version: "v1",
        resource: "customresourcedefinitions",
        kind: "CustomResourceDefinition",
        namespaced: false,
        shortNames: ["crd", "crds"],
        categories: ["api-extensions"],
        subresources: ["status"],
      }),
      strategy: new CrdStrategy(clock, crds),
    },
    ...COMMON_KINDS.map(servedKind),
  ];
}
