/**
 * Names of the workbook's own API group, `workbook.dev/v1alpha1`: the group and version, the descriptors an
 * informer needs, the label that ties a ConfigSet's ConfigMaps to it and the Bucket finalizer. In Kubernetes
 * these are the constants an operator's `api/v1alpha1` package exports next to its Go types
 * (`GroupVersion`, label keys, finalizer names).
 */
import type { ResourceDescriptor } from "../../client/resource-descriptor.js";

/** API group of the workbook's kinds (an operator's `GroupVersion.Group`). */
export const WORKBOOK_GROUP = "workbook.dev";

/** The one served and stored version. `v1alpha1`: the schema may still change between workbook releases. */
export const WORKBOOK_VERSION = "v1alpha1";

/** `apiVersion` of every workbook object: `workbook.dev/v1alpha1`. */
export const WORKBOOK_API_VERSION = `${WORKBOOK_GROUP}/${WORKBOOK_VERSION}`;

/** Label on every ConfigMap a ConfigSet owns; its value is the ConfigSet's name (a ReplicaSet's selector). */
export const CONFIGSET_LABEL = "workbook.dev/configset";

/** Finalizer a Bucket controller puts on a Bucket until the bucket in the (fake) cloud is gone. */
export const BUCKET_FINALIZER = "workbook.dev/bucket-cleanup";

/** Label on every child of a StaticSite; its value is the site's name. */
export const STATIC_SITE_LABEL = "workbook.dev/staticsite";

/** Finalizer a StaticSite operator puts on a site until the site's bucket in the (fake) cloud is gone. */
export const STATIC_SITE_FINALIZER = "workbook.dev/site-cleanup";

/** Upper bound of `StaticSite.spec.replicas`, enforced by the CRD schema (`maximum`). */
export const STATIC_SITE_MAX_REPLICAS = 20;

/** Upper bound of `ConfigSet.spec.replicas`, enforced by the CRD schema (`maximum`). */
export const CONFIGSET_MAX_REPLICAS = 50;

/**
 * Descriptors of the workbook's kinds, for `factory.informerFor(WorkbookResources.configSets)` and
 * `new ListWatch(...)`: the group/version/resource a RESTMapper would resolve for them in client-go.
 */
export const WorkbookResources = Object.freeze({
  configSets: Object.freeze({
    group: WORKBOOK_GROUP,
    version: WORKBOOK_VERSION,
    plural: "configsets",
    kind: "ConfigSet",
    namespaced: true,
  }) satisfies ResourceDescriptor,
  buckets: Object.freeze({
    group: WORKBOOK_GROUP,
    version: WORKBOOK_VERSION,
    plural: "buckets",
    kind: "Bucket",
    namespaced: true,
  }) satisfies ResourceDescriptor,
  staticSites: Object.freeze({
    group: WORKBOOK_GROUP,
    version: WORKBOOK_VERSION,
    plural: "staticsites",
    kind: "StaticSite",
    namespaced: true,
  }) satisfies ResourceDescriptor,
});
