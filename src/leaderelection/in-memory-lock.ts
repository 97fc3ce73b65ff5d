import type { InMemoryLeaseStore } from "./in-memory-lease-store.js";
import { type LeaseEndpoint, LeaseObjectLock } from "./lease-object-lock.js";
import type { ResourceLockConfig } from "./resource-lock.js";

/**
 * A Lease lock held in memory: same code path as {@link LeaseLock} (cached Lease, resourceVersion-guarded
 * replace), but the "API" is an {@link InMemoryLeaseStore} shared by the candidates. Pass a wrapping
 * `endpoint` to inject latency, failures or partitions between one candidate and the store.
 */
export class InMemoryLock extends LeaseObjectLock {
  constructor(
    readonly store: InMemoryLeaseStore,
    config: ResourceLockConfig,
    endpoint: LeaseEndpoint = store,
  ) {
    super(endpoint, config);
  }
}
