export {};
// HTTP layer, TLS, kubeconfig, instruments (owner: apiserver HTTP layer).
export * from "./http/request-info.js";
export * from "./instruments/index.js";
export * from "./kubeconfig.js";
export * from "./server.js";
export * from "./tls.js";
// Storage and semantics backend (owner: apiserver backend).
export * from "./backend.js";
export { ApiError, type StatusBody, type StatusCause } from "./errors.js";
export * from "./types.js";
export { FieldErrors } from "./admission/field-errors.js";
export { applyPatch } from "./patch/apply-patch.js";
export { applyJsonPatch, type JsonPatchOperation } from "./patch/json-patch.js";
export { applyMergePatch } from "./patch/merge-patch.js";
export { finalizersForDeletion } from "./registry/deletion-policy.js";
export { FieldSelector, parseFieldSelector } from "./selectors/field-selector.js";
export { LabelSelector, parseLabelSelector } from "./selectors/label-selector.js";
export { EventHistory } from "./storage/event-history.js";
export { MvccStore } from "./storage/mvcc-store.js";
export { WatchHub } from "./storage/watch-hub.js";
