/**
 * `kube-controller-workbook/apiserver`: the embedded Kubernetes API server. The HTTP layer, TLS, kubeconfig and
 * instruments (http/, server.ts, tls.ts, kubeconfig.ts, instruments/) and the storage-and-semantics backend
 * (backend.ts, storage/, registry/, admission/, validation/, patch/); README.md maps kube-apiserver's
 * parts to these files. It stands on the floor (`src/apimachinery`: object
 * types, selectors, Status errors), which the root entry point exports.
 */

export * from "./backend.js";
export * from "./http/request-info.js";
export * from "./instruments/index.js";
export * from "./kubeconfig.js";
export { applyPatch } from "./patch/apply-patch.js";
export { applyJsonPatch, type JsonPatchOperation } from "./patch/json-patch.js";
export { applyMergePatch } from "./patch/merge-patch.js";
export { finalizersForDeletion } from "./registry/deletion-policy.js";
export * from "./server.js";
export { EventHistory } from "./storage/event-history.js";
export { MvccStore } from "./storage/mvcc-store.js";
export { WatchCache, type WatchStart } from "./storage/watch-cache.js";
export * from "./tls.js";
export * from "./types.js";
export { FieldErrors } from "./validation/field-errors.js";
