/**
 * The workbook's own API group, `workbook.dev/v1alpha1`: the ConfigSet and Bucket kinds as CRDs, their types,
 * a one-call install/uninstall and a typed client. What an operator project's `api/` and `config/crd/`
 * directories hold in Kubernetes.
 */
export * from "./client.js";
export * from "./constants.js";
export * from "./crds.js";
export * from "./install.js";
export * from "./types.js";
