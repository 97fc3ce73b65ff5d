import type { KubeObject } from "../../../apimachinery/object.js";
import { dns1123LabelErrors } from "../../../apimachinery/validation/names.js";
import { namespaceTerminatingConflict } from "../errors.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { BasicStrategy } from "./strategy.js";

/** The spec finalizer the namespace controller removes once a namespace is empty (`FinalizerKubernetes`). */
export const NAMESPACE_FINALIZER = "kubernetes";

/** The label kube-apiserver keeps on every namespace, valued with its name (`v1.LabelMetadataName`). */
export const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** `spec.finalizers` of a namespace object (empty when absent). */
export function specFinalizers(ns: KubeObject): string[] {
  const s = isJsonObject(ns.spec) ? ns.spec : {};
  return Array.isArray(s.finalizers) ? (s.finalizers as string[]) : [];
}

/**
 * Namespace (core/v1), after `pkg/registry/core/namespace/strategy.go`: DNS-1123 label names; on create
 * `status.phase = Active` and `spec.finalizers` gains `kubernetes`; ordinary updates can change neither
 * `spec.finalizers` nor status (only `/finalize` and `/status` can); no generation. Every write sets the label
 * `kubernetes.io/metadata.name: <name>` (the strategy's `Canonicalize`), so selectors can match a namespace by name.
 *
 * Deletion (the namespace REST storage's own `Delete`): the first DELETE sets the deletionTimestamp and the
 * phase `Terminating` and keeps the namespace while `spec.finalizers` is not empty; a DELETE while that is
 * so is 409; `/finalize` is the only way to change `spec.finalizers`.
 */
export class NamespaceStrategy extends BasicStrategy {
  constructor() {
    super({ nameErrors: dns1123LabelErrors, hasStatus: true, extraFieldLabels: ["status.phase"] });
  }

  override prepareForCreate(obj: KubeObject): void {
    const spec: JsonObject = isJsonObject(obj.spec) ? obj.spec : {};
    const finalizers = specFinalizers(obj);
    spec.finalizers = finalizers.includes(NAMESPACE_FINALIZER)
      ? finalizers
      : [...finalizers, NAMESPACE_FINALIZER];
    obj.spec = spec;
    obj.status = { phase: "Active" };
    labelWithName(obj);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    obj.spec = old.spec;
    obj.status = old.status;
    labelWithName(obj);
  }

  /** `/finalize`: only `spec.finalizers` is taken from the body. */
  override readonly subresourceUpdates = {
    finalize: (body: KubeObject, old: KubeObject): KubeObject => {
      const finalizers = specFinalizers(body);
      return { ...old, spec: { ...(isJsonObject(old.spec) ? old.spec : {}), finalizers } };
    },
  };

  override checkDelete(old: KubeObject): void {
    if (old.metadata?.deletionTimestamp !== undefined && specFinalizers(old).length > 0) {
      throw namespaceTerminatingConflict(old.metadata?.name ?? "");
    }
  }

  override deletionPending(obj: KubeObject): boolean {
    return specFinalizers(obj).length > 0;
  }

  override prepareForDeletion(obj: KubeObject): void {
    obj.status = { ...(obj.status as object), phase: "Terminating" };
  }

  override bumpsGeneration(): boolean {
    return false;
  }
}

/** Sets `kubernetes.io/metadata.name` to the namespace's name (overriding any value the client sent). */
function labelWithName(obj: KubeObject): void {
  const meta = obj.metadata ?? {};
  // Malformed labels are left for validation to report.
  if (meta.name === undefined || (meta.labels !== undefined && !isJsonObject(meta.labels))) return;
  meta.labels = { ...(meta.labels ?? {}), [NAMESPACE_NAME_LABEL]: meta.name };
  obj.metadata = meta;
}
