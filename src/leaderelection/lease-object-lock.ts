import {
  type LeaderElectionRecord,
  type LeaseSpecFields,
  leaseSpecToRecord,
  rawRecord,
  recordToLeaseSpec,
} from "./leader-election-record.js";
import type { ObservedRecord, ResourceLock, ResourceLockConfig } from "./resource-lock.js";

/** A coordination.k8s.io/v1 Lease as the locks handle it: metadata (with resourceVersion) and spec. */
export interface LeaseObject {
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    uid?: string;
    labels?: Record<string, string>;
    [field: string]: unknown;
  };
  spec: LeaseSpecFields;
}

/**
 * The three calls a Lease-based lock needs from its API: read (undefined when NotFound), create and replace
 * (PUT with the body's resourceVersion; a stale one must fail with a conflict). A real cluster answers them
 * through client-node; the in-memory store answers them with the same compare-and-swap rule.
 */
export interface LeaseEndpoint {
  read(namespace: string, name: string): Promise<LeaseObject | undefined>;
  create(lease: LeaseObject): Promise<LeaseObject>;
  replace(lease: LeaseObject): Promise<LeaseObject>;
}

/**
 * The logic every Lease-based lock shares (client-go's `LeaseLock` minus its client): it keeps the Lease from
 * the last successful get/create/update and writes updates onto that cached object, so the write carries the
 * resourceVersion this candidate last saw.
 *
 * Invariant: `update` never writes without a cached Lease ("lease not initialized, call get or create
 * first"), and never refreshes the resourceVersion behind the caller's back; a 409 is the caller's signal
 * that someone else wrote in between.
 */
export class LeaseObjectLock implements ResourceLock {
  private cached: LeaseObject | undefined;

  constructor(
    private readonly endpoint: LeaseEndpoint,
    private readonly config: ResourceLockConfig,
  ) {
    if (!config.identity) throw new Error("a resource lock needs a non-empty identity");
    if (!config.name || !config.namespace) throw new Error("a resource lock needs a namespace and a name");
  }

  async get(): Promise<ObservedRecord | undefined> {
    const lease = await this.endpoint.read(this.config.namespace, this.config.name);
    if (!lease) return undefined;
    this.cached = lease;
    const record = leaseSpecToRecord(lease.spec);
    return { record, raw: rawRecord(record) };
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    this.cached = await this.endpoint.create({
      metadata: { name: this.config.name, namespace: this.config.namespace },
      spec: recordToLeaseSpec(record),
    });
  }

  async update(record: LeaderElectionRecord): Promise<void> {
    const base = this.cached;
    if (!base) throw new Error("lease not initialized, call get or create first");
    this.cached = await this.endpoint.replace({
      ...base,
      spec: { ...base.spec, ...recordToLeaseSpec(record) },
    });
  }

  recordEvent(message: string): void {
    this.config.eventRecorder?.(`${this.config.identity} ${message}`);
  }

  identity(): string {
    return this.config.identity;
  }

  describe(): string {
    return `${this.config.namespace}/${this.config.name}`;
  }
}
