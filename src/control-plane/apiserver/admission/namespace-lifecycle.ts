/**
 * The NamespaceLifecycle admission plugin (k8s.io/apiserver plugin/namespace/lifecycle/admission.go), the one
 * admission step the embedded server runs:
 * - a create in a namespace that does not exist is 404 NotFound (the namespace);
 * - a create in a namespace being deleted is 403 Forbidden, cause `NamespaceTerminating`;
 * - the immortal namespaces (`default`, `kube-system`, `kube-public`) cannot be deleted: 403 Forbidden.
 * It runs after the object is decoded and defaulted, before validation, as admission does in kube-apiserver.
 */
import { notFound } from "../../../apimachinery/errors.js";
import { immortalNamespace, namespaceTerminatingCreate } from "../errors.js";
import type { ResourceStore } from "../storage/resource-store.js";
import type { ResourceType } from "../types.js";

/** Namespaces that always exist and cannot be deleted (the plugin's immortal namespaces). */
export const IMMORTAL_NAMESPACES: readonly string[] = ["default", "kube-system", "kube-public"];

/** Admission for the writes the generic store makes. */
export interface Admission {
  /** Before a create of `name` in `namespace`; throws to reject. */
  admitCreate(rt: ResourceType, namespace: string | undefined, name: string): void;
  /** Before a delete of `name`; throws to reject. */
  admitDelete(rt: ResourceType, namespace: string | undefined, name: string): void;
}

/** NamespaceLifecycle over the store's namespaces (read live, as the plugin reads its informer). */
export class NamespaceLifecycle implements Admission {
  constructor(private readonly namespaces: () => ResourceStore) {}

  admitCreate(rt: ResourceType, ns: string | undefined, name: string): void {
    if (!rt.namespaced || ns === undefined) return;
    const v = this.namespaces().current(ns);
    if (!v) throw notFound({ group: "", resource: "namespaces", name: ns });
    if (v.object().metadata?.deletionTimestamp) {
      throw namespaceTerminatingCreate({ group: rt.group, resource: rt.resource, name }, ns);
    }
  }

  admitDelete(rt: ResourceType, _ns: string | undefined, name: string): void {
    if (rt.group === "" && rt.resource === "namespaces" && IMMORTAL_NAMESPACES.includes(name)) {
      throw immortalNamespace(name);
    }
  }
}
