/**
 * kube-controller-workbook: the Kubernetes controller machinery (client-go's concepts, TypeScript idiom) and an
 * embedded Kubernetes API server to run it against. Each area lives in its own folder; this file re-exports them.
 */
export * from "./apiserver/index.js";
export * from "./cache/index.js";
export * from "./client/index.js";
export * from "./clock/index.js";
export * from "./cluster/index.js";
export * from "./controller/index.js";
export * from "./controllers/index.js";
export * from "./grading/index.js";
export * from "./leaderelection/index.js";
export * from "./meta/index.js";
export * from "./viz/index.js";
export * from "./workqueue/index.js";
