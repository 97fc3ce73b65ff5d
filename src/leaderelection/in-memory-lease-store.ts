import { alreadyExists, conflict, invalid, notFound } from "../apimachinery/errors.js";
import type { LeaseEndpoint, LeaseObject } from "./lease-object-lock.js";

const LEASES = { group: "coordination.k8s.io", resource: "leases" };

/**
 * A tiny in-process Lease API with kube-apiserver's write rules for Leases: create fails with 409
 * AlreadyExists, replace with a stale `metadata.resourceVersion` fails with 409 Conflict, and every
 * successful write bumps a global revision that becomes the object's resourceVersion. Used by
 * {@link InMemoryLock} for fast, deterministic elections in tests and notebooks.
 *
 * Invariant: a replace succeeds only if its resourceVersion equals the stored one (one without a resourceVersion is
 * refused with 422, as kube-apiserver refuses unconditional updates of Leases), so of two writers that read the
 * same version exactly one wins.
 */
export class InMemoryLeaseStore implements LeaseEndpoint {
  private readonly leases = new Map<string, LeaseObject>();
  private revision = 0;

  async read(namespace: string, name: string): Promise<LeaseObject | undefined> {
    const stored = this.leases.get(`${namespace}/${name}`);
    return stored ? structuredClone(stored) : undefined;
  }

  async create(lease: LeaseObject): Promise<LeaseObject> {
    const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
    if (this.leases.has(key)) throw alreadyExists({ ...LEASES, name: lease.metadata.name });
    return this.store(key, { ...lease, metadata: { ...lease.metadata, uid: `lease-${this.revision + 1}` } });
  }

  async replace(lease: LeaseObject): Promise<LeaseObject> {
    const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
    const current = this.leases.get(key);
    if (!current) throw notFound({ ...LEASES, name: lease.metadata.name });
    const rv = lease.metadata.resourceVersion;
    if (rv === undefined || rv === "") {
      // kube-apiserver forbids unconditional updates of Leases.
      throw invalid("Lease", LEASES.group, lease.metadata.name, [
        {
          reason: "FieldValueInvalid",
          field: "metadata.resourceVersion",
          message: "Invalid value: 0: must be specified for an update",
        },
      ]);
    }
    if (rv !== current.metadata.resourceVersion) {
      throw conflict({ ...LEASES, name: lease.metadata.name });
    }
    return this.store(key, { ...lease, metadata: { ...lease.metadata, uid: current.metadata.uid } });
  }

  /** The stored Lease (a copy), for observers in tests and notebooks. */
  peek(namespace: string, name: string): LeaseObject | undefined {
    const stored = this.leases.get(`${namespace}/${name}`);
    return stored ? structuredClone(stored) : undefined;
  }

  private store(key: string, lease: LeaseObject): LeaseObject {
    this.revision++;
    const saved = structuredClone({
      ...lease,
      metadata: { ...lease.metadata, resourceVersion: `${this.revision}` },
    });
    this.leases.set(key, saved);
    return structuredClone(saved);
  }
}
