export {};
// HTTP layer, TLS, kubeconfig, instruments (owner: apiserver HTTP layer).
export * from "./http/request-info.js";
export * from "./instruments/index.js";
export * from "./kubeconfig.js";
export * from "./server.js";
export * from "./tls.js";
