import { registerBackend } from "./cluster.js";

export * from "./cluster.js";

// Real-cluster backends (owner: real clusters). Loaded lazily: Testcontainers is imported only when kind is used.
registerBackend("kind", () => import("./kind.js").then((m) => m.startKindCluster));
registerBackend("envtest", () => import("./envtest.js").then((m) => m.startEnvtestCluster));
