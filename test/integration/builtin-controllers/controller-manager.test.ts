/**
 * The embedded control plane elects its controller manager over `kube-system/kube-controller-manager`, and
 * simulated kubelets keep node Leases in `kube-node-lease` renewed: both visible to any client.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CoordinationV1Api } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONTROLLER_MANAGER_LEASE,
  ControllerManager,
  NODE_LEASE_NAMESPACE,
  NodeLeaseMonitor,
} from "../../../src/control-plane/builtin-controllers/index.js";
import { type EmbeddedCluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { KUBECTL } from "../../support/kubectl.js";
import { eventually } from "./helpers.js";

const FAST = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };
/**
 * Renews as often as FAST, but keeps leading through a 10 s stall of the event loop: on a loaded machine (vitest
 * runs files side by side) FAST's 1 s renew deadline can pass between two timer turns, and a test of "holds the
 * Lease, one term" would see a lost term that is the machine's, not the manager's.
 */
const STEADY = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 200 };
const quiet = () => {};

let toStop: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of toStop.reverse()) await s.stop();
  toStop = [];
});

async function embedded(options: Parameters<typeof startCluster>[0] & object): Promise<EmbeddedCluster> {
  const cluster = await startCluster({ ...options, backend: "embedded" });
  toStop.push(cluster);
  return cluster;
}

function leases(cluster: EmbeddedCluster) {
  return cluster.kubeConfig.makeApiClient(CoordinationV1Api);
}

async function holderOf(cluster: EmbeddedCluster): Promise<string> {
  const lease = await leases(cluster).readNamespacedLease(CONTROLLER_MANAGER_LEASE);
  return lease.spec?.holderIdentity ?? "";
}

describe("the embedded kube-controller-manager runs under a Lease", () => {
  it("holds kube-system/kube-controller-manager, renews it, and runs its controllers as leader", async () => {
    const cluster = await embedded({ embedded: { leaderElection: STEADY } });
    const manager = cluster.controllerManager!;
    expect(manager).toBeInstanceOf(ControllerManager);
    expect(manager.isLeader()).toBe(true);
    expect(manager.terms()).toHaveLength(1);
    expect(await holderOf(cluster)).toBe(manager.identity());
    const first = await leases(cluster).readNamespacedLease(CONTROLLER_MANAGER_LEASE);
    expect(first.spec?.leaseDurationSeconds).toBe(15);
    expect(
      await eventually(async () => {
        const now = await leases(cluster).readNamespacedLease(CONTROLLER_MANAGER_LEASE);
        return JSON.stringify(now.spec?.renewTime) !== JSON.stringify(first.spec?.renewTime);
        // A renewal must come (every 200 ms when the machine keeps up); the bound only ends a broken run.
      }, 15_000),
    ).toBe(true);
  });

  it("runs no Lease with leaderElection: false, nor when every controller is off", async () => {
    const off = await embedded({ embedded: { leaderElection: false } });
    expect(off.controllerManager).toBeUndefined();
    const none = await embedded({ embedded: { controllers: { garbageCollector: false, namespace: false } } });
    expect(none.controllerManager).toBeUndefined();
    await expect(leases(none).readNamespacedLease(CONTROLLER_MANAGER_LEASE)).rejects.toMatchObject({
      code: 404,
    });
  });

  it("a second manager stands by, and takes over at once when the leader stops (release on cancel)", async () => {
    const cluster = await embedded({ embedded: { leaderElection: FAST } });
    const standby = new ControllerManager(cluster.kubeConfig, {
      garbageCollector: false,
      leaderElection: FAST,
      onError: quiet,
    });
    toStop.push(standby);
    await standby.start();
    expect(standby.isLeader()).toBe(false);
    expect(await holderOf(cluster)).toBe(cluster.controllerManager!.identity());
    await cluster.controllerManager!.stop();
    // Released on stop (client-go's ReleaseOnCancel): the holder is cleared before stop() resolves, so the standby
    // takes over at its next retry instead of waiting for the lease to expire. Judged on the Lease, not a clock.
    expect([standby.identity(), ""]).toContain(await holderOf(cluster));
    expect(await eventually(() => standby.isLeader(), 15_000)).toBe(true);
    expect(await holderOf(cluster)).toBe(standby.identity());
    const lease = await leases(cluster).readNamespacedLease(CONTROLLER_MANAGER_LEASE);
    expect(lease.spec?.leaseDurationSeconds).toBe(2); // 1500 ms, rounded up
  });

  it("a manager that cannot renew stops its controllers before its lease expires, then campaigns again", async () => {
    const cluster = await embedded({ embedded: { leaderElection: FAST, controllers: { namespace: false } } });
    const manager = cluster.controllerManager!;
    const firstIdentity = manager.identity();
    cluster.instruments.faults.failNext("update", 1000, 503, "leases");
    const cutAt = Date.now();
    expect(await eventually(() => !manager.isLeader(), 3000)).toBe(true);
    const lost = Date.now() - cutAt;
    expect(lost).toBeLessThan(FAST.leaseDurationMs + 300);
    expect(await eventually(() => manager.terms()[0]?.stoppedAt !== undefined, 3000)).toBe(true);
    cluster.instruments.faults.clear();
    // A restarted kube-controller-manager has a new identity: it waits for the old lease to expire.
    expect(await eventually(() => manager.isLeader(), 6000)).toBe(true);
    expect(manager.identity()).not.toBe(firstIdentity);
    expect(await holderOf(cluster)).toBe(manager.identity());
    expect(await eventually(() => manager.terms().length === 2, 3000)).toBe(true);
  });
});

describe("simulated kubelets renew node Leases in kube-node-lease", () => {
  it("creates one Lease per node and renews it; a paused node goes stale while the others stay fresh", async () => {
    const cluster = await embedded({
      embedded: {
        leaderElection: FAST,
        nodes: { names: ["node-a", "node-b"], leaseDurationSeconds: 1, renewInterval: 100 },
      },
    });
    const nodes = cluster.nodes!;
    const api = leases(cluster);
    const list = await api.listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE });
    expect(list.items.map((l) => l.metadata?.name).sort()).toEqual(["node-a", "node-b"]);
    expect(list.items.map((l) => l.spec?.holderIdentity).sort()).toEqual(["node-a", "node-b"]);
    expect(list.items.every((l) => l.spec?.leaseDurationSeconds === 1)).toBe(true);

    const monitor = new NodeLeaseMonitor({ gracePeriod: 500 });
    const verdicts = async () =>
      monitor.observe((await api.listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE })).items);
    expect((await verdicts()).map((v) => v.health)).toEqual(["fresh", "fresh"]);
    nodes.pause("node-b");
    expect(
      await eventually(async () => {
        const v = await verdicts();
        return v[0]?.health === "fresh" && v[1]?.health === "stale";
      }, 5000),
    ).toBe(true);
    const renewalsWhenStale = nodes.renewals("node-b");
    await new Promise((r) => setTimeout(r, 300));
    expect(nodes.renewals("node-b")).toBe(renewalsWhenStale);
    expect(nodes.renewals("node-a")).toBeGreaterThan(3);
    await nodes.resume("node-b");
    expect((await verdicts()).map((v) => v.health)).toEqual(["fresh", "fresh"]);
  });

  it.skipIf(!KUBECTL)(
    "kubectl get lease -A shows both uses: the controller manager's and the nodes'",
    async () => {
      // kube-controller-manager's own timings: with FAST's 1 s renew deadline, a loaded machine can miss every
      // renewal while the collector starts its informers (one per served resource, ~45) and the term ends.
      const cluster = await embedded({ embedded: { nodes: { count: 2 } } });
      // Asynchronous: the embedded server answers from this very process.
      const { stdout: out } = await promisify(execFile)(
        KUBECTL!,
        ["get", "lease", "-A", "--kubeconfig", cluster.kubeconfigPath],
        { encoding: "utf8", timeout: 20_000 },
      );
      expect(out).toMatch(/kube-system\s+kube-controller-manager\s+\S+_/);
      expect(out).toMatch(/kube-node-lease\s+workbook-node-1\s+workbook-node-1/);
      expect(out).toMatch(/kube-node-lease\s+workbook-node-2\s+workbook-node-2/);
    },
  );
});

describe("the node lifecycle controller's judgement", () => {
  it("counts silence from when it saw the Lease change on its own clock, not from renewTime", async () => {
    const { FakeClock } = await import("../../../src/clock/index.js");
    const clock = new FakeClock();
    const monitor = new NodeLeaseMonitor({ gracePeriod: 40_000, clock });
    // renewTime far in the past (a kubelet whose clock is skewed): fresh, because it just changed.
    const lease = (t: string) => ({ metadata: { name: "n1" }, spec: { renewTime: t } });
    expect(monitor.observe([lease("2020-01-01T00:00:00.000000Z")])[0]?.health).toBe("fresh");
    await clock.advance(30_000);
    expect(monitor.observe([lease("2020-01-01T00:00:10.000000Z")])[0]?.silentFor).toBe(0);
    await clock.advance(40_001);
    expect(monitor.observe([lease("2020-01-01T00:00:10.000000Z")])[0]).toMatchObject({
      health: "stale",
      silentFor: 40_001,
    });
  });
});
