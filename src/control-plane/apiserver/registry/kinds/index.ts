/**
 * The common built-in kinds the embedded server serves from data tables (see `../kind-spec.ts`), beside the
 * hand-written strategies of Namespace, ConfigMap, Secret, Pod, Service, Event, Lease, Deployment, ReplicaSet and
 * CustomResourceDefinition.
 */
import type { KindSpec } from "../kind-spec.js";
import { ADMISSION_KINDS } from "./admission-kinds.js";
import { ADMISSION_POLICY_KINDS } from "./admission-policy-kinds.js";
import { APPS_KINDS } from "./apps-kinds.js";
import { BATCH_KINDS } from "./batch-kinds.js";
import { CLUSTER_OPS_KINDS } from "./cluster-ops-kinds.js";
import { CORE_KINDS } from "./core-kinds.js";
import { NETWORK_KINDS } from "./network-kinds.js";
import { RBAC_KINDS } from "./rbac-kinds.js";

/** Every kind served from data, in discovery order within each group. */
export const COMMON_KINDS: readonly KindSpec[] = [
  ...CORE_KINDS,
  ...APPS_KINDS,
  ...BATCH_KINDS,
  ...RBAC_KINDS,
  ...NETWORK_KINDS,
  ...CLUSTER_OPS_KINDS,
  ...ADMISSION_KINDS,
  ...ADMISSION_POLICY_KINDS,
];
