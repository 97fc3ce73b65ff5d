import { ApiException, CoordinationV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../../src/apimachinery/wait/index.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { LeaderElector, LeaseLock } from "../../../src/leaderelection/index.js";

/**
 * LeaseLock against a real API server (the embedded one by default; any backend via WORKBOOK_CLUSTER): two
 * electors race for one coordination.k8s.io/v1 Lease. Real clock, short durations (4 s / 3 s / 0.5 s).
 */

let cluster: Cluster;
let leases: CoordinationV1Api;
const namespace = "default";

beforeAll(async () => {
  cluster = await startCluster();
  leases = cluster.kubeConfig.makeApiClient(CoordinationV1Api);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

function elector(name: string, identity: string, events: string[], releaseOnCancel = false) {
  const lock = new LeaseLock(cluster.kubeConfig, { namespace, name, identity });
  return new LeaderElector({
    lock,
    leaseDurationMs: 4_000,
    renewDeadlineMs: 3_000,
    retryPeriodMs: 500,
    releaseOnCancel,
    random: seededRandom(identity.length),
    callbacks: {
      onStartedLeading: () => void events.push(`${identity} started`),
      onStoppedLeading: () => void events.push(`${identity} stopped`),
    },
  });
}

describe("LeaseLock on a real API server", () => {
  it("writes a Lease with MicroTime fields; a stale resourceVersion gets 409 and does not acquire", async () => {
    const a = new LeaseLock(cluster.kubeConfig, { namespace, name: "cas", identity: "a" });
    const b = new LeaseLock(cluster.kubeConfig, { namespace, name: "cas", identity: "b" });
    const record = {
      holderIdentity: "a",
      leaseDurationSeconds: 15,
      acquireTime: "2026-01-02T15:04:05.123000Z",
      renewTime: "2026-01-02T15:04:05.123000Z",
      leaderTransitions: 0,
    };
    expect(await a.get()).toBeUndefined();
    await a.create(record);
    const seen = await b.get();
    expect(seen?.record).toEqual(record);
    await a.update({ ...record, renewTime: "2026-01-02T15:04:07.000000Z" });
    const err = await b.update({ ...record, holderIdentity: "b" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<unknown>).code).toBe(409);
    const lease = await leases.readNamespacedLease({ name: "cas", namespace });
    expect(lease.spec?.holderIdentity).toBe("a");
    const wire = JSON.stringify(lease.spec?.renewTime);
    expect(wire).toMatch(/^"2026-01-02T15:04:07\.0{6}Z"$/);
  });

  it("two electors: one leads, the other takes over after a release, and after a crash only once the lease expired", async () => {
    const events: string[] = [];
    const a = elector("race", "alpha", events, true);
    const b = elector("race", "beta", events);
    const runA = a.run();
    expect(await until(() => a.isLeader(), 5_000)).toBe(true);
    const runB = b.run();
    await new Promise((r) => setTimeout(r, 5_000)); // longer than the lease: alpha keeps renewing
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe("alpha");

    // Graceful: alpha releases, beta takes it at its next try (well under the 4 s lease).
    const released = Date.now();
    await a.stop();
    await runA;
    expect(events.slice(0, 2)).toEqual(["alpha started", "alpha stopped"]);
    expect(await until(() => b.isLeader(), 5_000)).toBe(true);
    expect(Date.now() - released).toBeLessThan(3_000);
    let lease = await leases.readNamespacedLease({ name: "race", namespace });
    expect(lease.spec?.holderIdentity).toBe("beta");
    expect(lease.spec?.leaseTransitions).toBe(1);

    // Crash: beta stops without releasing; gamma must wait for the lease to expire on its own clock.
    await b.stop();
    await runB;
    const crashed = Date.now();
    const c = elector("race", "gamma", events);
    const runC = c.run();
    expect(await until(() => c.isLeader(), 10_000)).toBe(true);
    expect(Date.now() - crashed).toBeGreaterThanOrEqual(4_000);
    lease = await leases.readNamespacedLease({ name: "race", namespace });
    expect(lease.spec?.holderIdentity).toBe("gamma");
    expect(lease.spec?.leaseTransitions).toBe(2);
    await c.stop();
    await runC;
  }, 45_000);
});
