/** client-go's `tools/leaderelection`: the Lease lock, the in-memory lock for tests, and the {@link LeaderElector}. */
export * from "./in-memory-lease-store.js";
export * from "./in-memory-lock.js";
export * from "./leader-election-config.js";
export * from "./leader-election-record.js";
export * from "./leader-elector.js";
export * from "./lease-lock.js";
export * from "./lease-object-lock.js";
export * from "./resource-lock.js";
