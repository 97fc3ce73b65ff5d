import {
  ApiException,
  CoordinationV1Api,
  type KubeConfig,
  type V1Lease,
  V1MicroTime,
} from "@kubernetes/client-node";
import { normalizeMicroTime } from "./leader-election-record.js";
import { type LeaseEndpoint, type LeaseObject, LeaseObjectLock } from "./lease-object-lock.js";
import type { ResourceLockConfig } from "./resource-lock.js";

function toMicroTime(value: string | undefined): V1MicroTime | undefined {
  return value ? new V1MicroTime(Date.parse(value)) : undefined;
}

function fromV1Lease(lease: V1Lease): LeaseObject {
  const spec = lease.spec ?? {};
  return {
    metadata: {
      ...(lease.metadata ?? {}),
      name: lease.metadata?.name ?? "",
      namespace: lease.metadata?.namespace ?? "",
    },
    spec: {
      holderIdentity: spec.holderIdentity,
      leaseDurationSeconds: spec.leaseDurationSeconds,
      acquireTime: spec.acquireTime ? normalizeMicroTime(spec.acquireTime as Date | string) : undefined,
      renewTime: spec.renewTime ? normalizeMicroTime(spec.renewTime as Date | string) : undefined,
      leaseTransitions: spec.leaseTransitions,
    },
  };
}

function toV1Lease(lease: LeaseObject): V1Lease {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: lease.metadata,
    spec: {
      holderIdentity: lease.spec.holderIdentity,
      leaseDurationSeconds: lease.spec.leaseDurationSeconds,
      acquireTime: toMicroTime(lease.spec.acquireTime),
      renewTime: toMicroTime(lease.spec.renewTime),
      leaseTransitions: lease.spec.leaseTransitions,
    },
  };
}

/** The Lease calls of a real API server, through client-node's `CoordinationV1Api`. */
export class CoordinationLeaseEndpoint implements LeaseEndpoint {
  constructor(private readonly api: CoordinationV1Api) {}

  async read(namespace: string, name: string): Promise<LeaseObject | undefined> {
    try {
      return fromV1Lease(await this.api.readNamespacedLease({ name, namespace }));
    } catch (err) {
      if (err instanceof ApiException && err.code === 404) return undefined;
      throw err;
    }
  }

  async create(lease: LeaseObject): Promise<LeaseObject> {
    const namespace = lease.metadata.namespace;
    return fromV1Lease(await this.api.createNamespacedLease({ namespace, body: toV1Lease(lease) }));
  }

  async replace(lease: LeaseObject): Promise<LeaseObject> {
    const { name, namespace } = lease.metadata;
    return fromV1Lease(await this.api.replaceNamespacedLease({ name, namespace, body: toV1Lease(lease) }));
  }
}

/**
 * client-go's `LeaseLock`: the leader election record stored in a coordination.k8s.io/v1 Lease (the only lock
 * kind left in client-go; kube-controller-manager uses `kube-system/kube-controller-manager`). Times are
 * written as MicroTime (RFC3339 with microseconds). Updates PUT the cached Lease with its resourceVersion, so
 * a candidate that lost a race gets 409 Conflict and simply does not acquire.
 */
export class LeaseLock extends LeaseObjectLock {
  constructor(kubeConfig: KubeConfig, config: ResourceLockConfig) {
    super(new CoordinationLeaseEndpoint(kubeConfig.makeApiClient(CoordinationV1Api)), config);
  }
}
