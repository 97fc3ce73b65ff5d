export * from "./control-plane.js";
export * from "./discovery.js";
export * from "./garbage-collector/absent-owner-cache.js";
export * from "./garbage-collector/garbage-collector.js";
export * from "./garbage-collector/graph.js";
export * from "./garbage-collector/graph-builder.js";
export * from "./namespace/namespace-controller.js";
export * from "./object-access.js";
