import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import type { ResourceLock } from "../../../src/leaderelection/resource-lock.js";
import {
  CrashableLock,
  installWorkbookApi,
  overlappingReconciles,
  type ReconcileRecord,
  type ReplicaLeaseEvent,
  StaticSiteReplica,
  staticSiteClient,
} from "../../../src/workbook/index.js";

let cluster: Cluster;
const namespace = `capstone-${Date.now().toString(36)}`;

beforeAll(async () => {
  cluster = await startCluster();
  await installWorkbookApi(cluster.kubeConfig);
  await cluster.kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: namespace } } });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("CrashableLock", () => {
  it("passes calls through while alive and refuses them, without calling the inner lock, once dead", async () => {
    const calls: string[] = [];
    const inner = {
      get: async () => {
        calls.push("get");
        return undefined;
      },
      create: async () => calls.push("create"),
      update: async () => calls.push("update"),
      recordEvent: () => {},
      identity: () => "a",
      describe: () => "ns/lease",
    } as unknown as ResourceLock;
    const lock = new CrashableLock(inner);
    await lock.get();
    lock.dead = true;
    await expect(lock.get()).rejects.toThrow("a is dead");
    await expect(lock.update({} as never)).rejects.toThrow("a is dead");
    expect(calls).toEqual(["get"]);
  });
});

describe("StaticSiteReplica", () => {
  it("only the leader reconciles; after a crash the standby takes over once the lease expires", async () => {
    const reconciles: ReconcileRecord[] = [];
    const leaseEvents: ReplicaLeaseEvent[] = [];
    const seen: string[] = [];
    const make = (identity: string) =>
      new StaticSiteReplica({
        kubeConfig: cluster.kubeConfig,
        namespace,
        identity,
        elect: true,
        leaseDurationMs: 1500,
        renewDeadlineMs: 1000,
        retryPeriodMs: 200,
        reconciles,
        onLeaseEvent: (e) => leaseEvents.push(e),
        reconcile: async (key, _signal, ctx) => {
          if (ctx.sites.get(namespace, key.split("/")[1]!)) seen.push(`${ctx.identity} ${key}`);
        },
      });
    const a = make("a");
    const b = make("b");
    await a.start();
    await b.start();
    await until(() => a.leading || b.leading, 10_000);
    const sites = staticSiteClient(cluster.kubeConfig);
    await sites.create({ metadata: { name: "one", namespace }, spec: { replicas: 1, content: "x" } });
    await until(() => seen.length > 0, 10_000);
    const leader = a.leading ? a : b;
    const standby = leader === a ? b : a;
    expect(Number(a.leading) + Number(b.leading)).toBe(1);
    expect(seen.every((s) => s.startsWith(`${leader.identity} `))).toBe(true);
    const crashedAt = Date.now();
    await leader.crash();
    const crashDone = Date.now();
    await until(() => standby.leading, 10_000);
    const takeover = leaseEvents.find((e) => e.candidate === standby.identity && e.kind === "acquired");
    expect(takeover?.at ?? 0).toBeGreaterThanOrEqual(crashedAt + 1500 - 2.2 * 200);
    await sites.patch(namespace, "one", { spec: { content: "y" } });
    await until(() => seen.some((s) => s.startsWith(`${standby.identity} `)), 10_000);
    expect(reconciles.filter((r) => r.identity === leader.identity && r.startedAt > crashDone)).toEqual([]);
    expect(overlappingReconciles(reconciles)).toEqual([]);
    expect(standby.metrics().reconciles).toBeGreaterThan(0);
    await standby.stop();
  }, 60_000);
});

describe("overlappingReconciles", () => {
  it("pairs only the same key by two replicas at the same time", () => {
    const r = (identity: string, key: string, startedAt: number, endedAt: number) => ({
      identity,
      key,
      startedAt,
      endedAt,
    });
    const pairs = overlappingReconciles([
      r("a", "k", 0, 10),
      r("b", "k", 5, 15),
      r("b", "j", 0, 10),
      r("a", "k", 20, 30),
    ]);
    expect(pairs.map(([x, y]) => `${x.identity}${x.startedAt}-${y.identity}${y.startedAt}`)).toEqual([
      "a0-b5",
    ]);
  });
});
