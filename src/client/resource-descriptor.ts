/**
 * What a {@link ListWatch} (and an informer) needs to know about a resource to list and watch it: its
 * group/version, the plural name used in URLs, its kind, and whether it lives in namespaces. Mirrors client-go's
 * `schema.GroupVersionResource` plus the `Kind` and scope that a `RESTMapper` would resolve.
 */
export interface ResourceDescriptor {
  /** API group, `""` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural as it appears in URLs, e.g. `configmaps`. */
  readonly plural: string;
  /** Kind of a single object, e.g. `ConfigMap`. */
  readonly kind: string;
  /** True for namespaced resources (pods, configmaps); false for cluster-scoped ones (namespaces, nodes). */
  readonly namespaced: boolean;
}

function builtin(group: string, version: string, plural: string, kind: string, namespaced: boolean) {
  return Object.freeze({ group, version, plural, kind, namespaced }) satisfies ResourceDescriptor;
}

/** Descriptors of common built-in resources, so `informerFor(BuiltinResources.configMaps)` reads naturally. */
export const BuiltinResources = Object.freeze({
  configMaps: builtin("", "v1", "configmaps", "ConfigMap", true),
  secrets: builtin("", "v1", "secrets", "Secret", true),
  pods: builtin("", "v1", "pods", "Pod", true),
  services: builtin("", "v1", "services", "Service", true),
  serviceAccounts: builtin("", "v1", "serviceaccounts", "ServiceAccount", true),
  events: builtin("", "v1", "events", "Event", true),
  namespaces: builtin("", "v1", "namespaces", "Namespace", false),
  nodes: builtin("", "v1", "nodes", "Node", false),
  deployments: builtin("apps", "v1", "deployments", "Deployment", true),
  replicaSets: builtin("apps", "v1", "replicasets", "ReplicaSet", true),
  leases: builtin("coordination.k8s.io", "v1", "leases", "Lease", true),
  customResourceDefinitions: builtin(
    "apiextensions.k8s.io",
    "v1",
    "customresourcedefinitions",
    "CustomResourceDefinition",
    false,
  ),
});

/** `apiVersion` of the resource's objects: `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(d: ResourceDescriptor): string {
  return d.group ? `${d.group}/${d.version}` : d.version;
}

/** Checks a descriptor's fields and throws a clear error for anything that cannot form a URL. */
export function validateDescriptor(d: ResourceDescriptor): void {
  const segment = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
  if (d.group !== "" && !segment.test(d.group)) throw new Error(`invalid API group "${d.group}"`);
  if (!segment.test(d.version)) throw new Error(`invalid API version "${d.version}"`);
  if (!segment.test(d.plural))
    throw new Error(`invalid resource plural "${d.plural}" (lower-case, e.g. "configmaps")`);
  if (!d.kind) throw new Error(`resource "${d.plural}" has no kind`);
}

/**
 * The collection URL path, e.g. `/api/v1/namespaces/demo/configmaps` or `/apis/apps/v1/deployments` (all
 * namespaces). A namespace on a cluster-scoped resource is an error, as kube-apiserver would 404 it.
 */
export function collectionPath(d: ResourceDescriptor, namespace?: string): string {
  const root = d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`;
  if (!namespace) return `${root}/${d.plural}`;
  if (!d.namespaced)
    throw new Error(`${d.plural} is cluster-scoped; it cannot be listed in namespace "${namespace}"`);
  return `${root}/namespaces/${encodeURIComponent(namespace)}/${d.plural}`;
}

/** A stable identity for a descriptor: `plural.group/version` (`configmaps/v1` for the core group). */
export function descriptorKey(d: ResourceDescriptor): string {
  return d.group ? `${d.plural}.${d.group}/${d.version}` : `${d.plural}/${d.version}`;
}
