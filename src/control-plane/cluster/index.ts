import { registerBackend } from "./cluster.js";

export * from "./cluster.js";

// Real-cluster backends (owner: real clusters). Loaded lazily: Testcontainers is imported only when kind is used.
registerBackend("kind", () => import("./kind.js").then((m) => m.startKindCluster));
registerBackend("envtest", () => import("./envtest.js").then((m) => m.startEnvtestCluster));

// The embedded API server (the default) and the current KUBECONFIG context (owner: apiserver HTTP layer).
registerBackend("embedded", () => import("./embedded.js").then((m) => m.startEmbeddedCluster));
registerBackend("kubeconfig", () => import("./kubeconfig-backend.js").then((m) => m.startKubeconfigCluster));

export type { ControlPlaneControllers, EmbeddedCluster, EmbeddedClusterOptions } from "./embedded.js";
export { findEnvtestAssets } from "./envtest/assets.js";
export type { EnvtestCluster, EnvtestOptions } from "./envtest.js";
export { containerRuntimeUnavailableReason, NoContainerRuntimeError } from "./kind/runtime.js";
export type { KindCluster, KindOptions } from "./kind.js";
export type { KubeconfigBackendOptions, KubeconfigCluster } from "./kubeconfig-backend.js";
