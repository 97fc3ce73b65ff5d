import type { KubeObject } from "../../../apimachinery/object.js";
import type { JsonObject } from "../json.js";
import type { FieldErrors } from "../validation/field-errors.js";

/**
 * How `metadata.generation` behaves for a kind, after its kube-apiserver strategy:
 * - `spec`: 1 on create, bumped when `spec` changes (most kinds with a spec: Job, StatefulSet, Ingress...);
 * - `content`: 1 on create, bumped when anything but metadata changes, or the labels (EndpointSlice, PodTemplate);
 * - `create`: 1 on create and never bumped (PriorityClass).
 * - `webhooks`: 1 on create, bumped when `webhooks` changes (the admission webhook configurations).
 * Kinds without one (ServiceAccount, RBAC, HorizontalPodAutoscaler...) have no generation at all.
 */
export type GenerationRule = "spec" | "content" | "create" | "webhooks";

/**
 * One built-in kind the server serves from data: its discovery entry (group, version, plural, scope, short names,
 * categories), the status and generation rules of its `registry.Store` strategy, its `SetDefaults_*` defaulting
 * and the validation a learner meets first. Every hook is optional; a kind with none is stored as sent, like
 * kube-apiserver does for ServiceAccount or ConfigMap-like data kinds.
 */
export interface KindSpec {
  group: string;
  version: string;
  /** The plural resource name in URLs (`statefulsets`). */
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  /** Discovery categories (`all` makes `kubectl get all` list the kind). */
  categories?: string[];
  /** `/status` is a subresource: main-endpoint writes keep the stored status; `/status` writes keep the rest. */
  status?: boolean;
  generation?: GenerationRule;
  /** The status a create stores, whatever the body says (`{phase: "Pending"}` for claims); default none. */
  initialStatus?: () => JsonObject;
  /** A create keeps the body's status (a Node's kubelet registers with one); default false. */
  createKeepsStatus?: boolean;
  /** `metadata.name` rule, when not a DNS-1123 subdomain (RBAC's path-segment names). */
  nameErrors?: (name: string) => string[];
  /** A DELETE without a propagation policy orphans dependents (`DefaultGarbageCollectionPolicy`, batch/v1 Job). */
  orphanByDefault?: boolean;
  /** Field selectors the kind supports besides metadata.name and metadata.namespace. */
  fieldLabels?: string[];
  /** Server-side defaults applied to every body decoded (the `SetDefaults_*` functions); mutates. */
  defaults?: (obj: KubeObject) => void;
  /** Extra work of the strategy's PrepareForCreate (after the uid is set), e.g. a Job's generated selector. */
  prepareForCreate?: (obj: KubeObject) => void;
  /** Extra work of the strategy's PrepareForUpdate on the main endpoint, e.g. a DaemonSet's template generation. */
  prepareForUpdate?: (obj: KubeObject, old: KubeObject) => void;
  /** Validation on create (`old` undefined) and update; add 422 causes to `errs`. */
  validate?: (obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined) => void;
}
