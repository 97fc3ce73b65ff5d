import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, eventually, refTo } from "./helpers.js";

/**
 * The garbage collector end to end on the embedded control plane: ConfigMaps owning ConfigMaps, deleted with
 * each propagation policy; dangling and cross-namespace references.
 */

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: true, namespace: false } },
  });
  const { core } = configMaps(cluster, "default");
  for (const name of ["gc-bg", "gc-fg", "gc-orphan", "gc-dangling", "gc-a", "gc-b"]) {
    await core.createNamespace({ body: { metadata: { name } } });
  }
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("GarbageCollector on the embedded cluster", () => {
  it("background: deleting the owner deletes its dependents (and theirs) afterwards", async () => {
    const cms = configMaps(cluster, "gc-bg");
    const owner = await cms.create("owner");
    const child = await cms.create("child", [refTo(owner)]);
    await cms.create("grandchild", [refTo(child)]);
    await cms.create("bystander");
    await cms.delete("owner", "Background");
    expect(await cms.exists("owner")).toBe(false); // gone at once: background
    expect(
      await eventually(async () => !(await cms.exists("child")) && !(await cms.exists("grandchild"))),
    ).toBe(true);
    expect(await cms.exists("bystander")).toBe(true);
  });

  it("foreground: the owner stays (foregroundDeletion) until its blocking dependents are gone", async () => {
    const cms = configMaps(cluster, "gc-fg");
    const owner = await cms.create("owner");
    // The held dependent carries a finalizer of its own, so it lingers in deletion until we release it.
    await cms.create("held", [refTo(owner, true)], ["example.com/hold"]);
    await cms.create("plain", [refTo(owner, true)]);
    await cms.delete("owner", "Foreground");
    expect(
      await eventually(async () => (await cms.get("held"))?.metadata?.deletionTimestamp !== undefined),
    ).toBe(true);
    expect(await eventually(async () => !(await cms.exists("plain")))).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await cms.get("owner");
    expect(waiting?.metadata?.deletionTimestamp).toBeDefined();
    expect(waiting?.metadata?.finalizers).toContain("foregroundDeletion");
    await cms.dropFinalizers("held");
    expect(await eventually(async () => !(await cms.exists("owner")))).toBe(true);
  });

  it("foreground cascades: a dependent with dependents of its own is deleted in the foreground too", async () => {
    const cms = configMaps(cluster, "gc-fg");
    const top = await cms.create("top");
    const middle = await cms.create("middle", [refTo(top, true)]);
    await cms.create("bottom", [refTo(middle, true)], ["example.com/hold"]);
    await cms.delete("top", "Foreground");
    // bottom is held, so middle waits in foreground deletion, and top waits for middle.
    expect(
      await eventually(
        async () => (await cms.get("middle"))?.metadata?.finalizers?.includes("foregroundDeletion") === true,
      ),
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await cms.exists("top")).toBe(true);
    await cms.dropFinalizers("bottom");
    expect(await eventually(async () => !(await cms.exists("top")))).toBe(true);
    expect(await cms.exists("middle")).toBe(false);
    expect(await cms.exists("bottom")).toBe(false);
  });

  it("orphan: the owner goes, its dependents stay without the ownerReference", async () => {
    const cms = configMaps(cluster, "gc-orphan");
    const owner = await cms.create("owner");
    const other = await cms.create("other-owner");
    await cms.create("kid", [refTo(owner), refTo(other)]);
    await cms.delete("owner", "Orphan");
    expect(await eventually(async () => !(await cms.exists("owner")))).toBe(true);
    const kid = await cms.get("kid");
    expect(kid?.metadata?.ownerReferences?.map((r) => r.name)).toEqual(["other-owner"]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await cms.exists("kid")).toBe(true);
  });

  it("dangling references: an object whose only owner never existed is collected; a solid owner keeps it", async () => {
    const cms = configMaps(cluster, "gc-dangling");
    const ghost = {
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "ghost",
      uid: "00000000-dead-beef-0000-000000000000",
    };
    const real = await cms.create("real");
    await cms.create("orphaned", [ghost]);
    await cms.create("mixed", [ghost, refTo(real)]);
    expect(await eventually(async () => !(await cms.exists("orphaned")))).toBe(true);
    expect(
      await eventually(async () => (await cms.get("mixed"))?.metadata?.ownerReferences?.length === 1),
    ).toBe(true);
    expect((await cms.get("mixed"))?.metadata?.ownerReferences?.[0]?.name).toBe("real");
  });

  it("an owner in another namespace is not an owner: the dependent is collected, the owner untouched", async () => {
    const a = configMaps(cluster, "gc-a");
    const b = configMaps(cluster, "gc-b");
    const ownerInA = await a.create("owner");
    // Let the collector observe the owner first: the warning names an owner it saw in another namespace.
    await new Promise((r) => setTimeout(r, 500));
    await b.create("cross", [refTo(ownerInA)]);
    expect(await eventually(async () => !(await b.exists("cross")))).toBe(true);
    expect(await a.exists("owner")).toBe(true);
    const warned = async () => {
      const events = await b.core.listNamespacedEvent({ namespace: "gc-b" });
      return events.items.some(
        (e) => e.reason === "OwnerRefInvalidNamespace" && e.involvedObject.name === "cross",
      );
    };
    expect(await eventually(warned)).toBe(true);
  });
  it("a cluster-scoped dependent of a namespaced owner is invalid: left alone, not deleted", async () => {
    const cms = configMaps(cluster, "default");
    const owner = await cms.create("ns-owner");
    await cms.core.createNamespace({
      body: { metadata: { name: "gc-cluster-scoped", ownerReferences: [refTo(owner)] } },
    });
    await cms.delete("ns-owner", "Background");
    await new Promise((r) => setTimeout(r, 1_500));
    const ns = await cms.core.readNamespace({ name: "gc-cluster-scoped" });
    expect(ns.metadata?.deletionTimestamp).toBeUndefined();
  });
});
