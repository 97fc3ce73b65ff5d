import { afterEach, describe, expect, it } from "vitest";
import { SharedInformerFactory } from "../../../src/cache/factory.js";
import { Indexer } from "../../../src/cache/indexer.js";
import { Lister } from "../../../src/cache/lister.js";
import type { ListWatchScope } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";
import { FakeClock, flushMicrotasks } from "../../../src/clock/fake-clock.js";
import { FakeListWatch } from "./fake-list-watch.js";

const factories: SharedInformerFactory[] = [];
afterEach(async () => {
  for (const f of factories.splice(0)) await f.shutdown();
});

function makeFactory(namespace?: string) {
  const clock = new FakeClock();
  const created: Array<{ plural: string; scope: ListWatchScope; lw: FakeListWatch }> = [];
  const factory = new SharedInformerFactory(undefined, {
    clock,
    namespace,
    listWatchFor: (resource, scope) => {
      const lw = new FakeListWatch();
      lw.create("one", "ns1");
      created.push({ plural: resource.plural, scope, lw });
      return lw;
    },
  });
  factories.push(factory);
  return { factory, created, clock };
}

describe("SharedInformerFactory", () => {
  it("returns the same informer for the same resource and scope, another for another scope", () => {
    const { factory, created } = makeFactory();
    const a = factory.informerFor(BuiltinResources.configMaps);
    const b = factory.informerFor(BuiltinResources.configMaps);
    const c = factory.informerFor(BuiltinResources.configMaps, { namespace: "ns1" });
    const d = factory.informerFor(BuiltinResources.secrets);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    expect(created.map((x) => [x.plural, x.scope.namespace])).toEqual([
      ["configmaps", undefined],
      ["configmaps", "ns1"],
      ["secrets", undefined],
    ]);
  });

  it("applies the factory namespace, but not to cluster-scoped resources", () => {
    const { factory, created } = makeFactory("team-a");
    factory.informerFor(BuiltinResources.pods);
    factory.informerFor(BuiltinResources.namespaces);
    expect(created.map((x) => x.scope.namespace)).toEqual(["team-a", undefined]);
  });

  it("start() starts only unstarted informers; waitForCacheSync waits for all; shutdown stops all", async () => {
    const { factory, created } = makeFactory();
    const cms = factory.informerFor(BuiltinResources.configMaps);
    factory.start();
    await flushMicrotasks();
    const secrets = factory.informerFor(BuiltinResources.secrets);
    expect(secrets.isStarted()).toBe(false);
    factory.start();
    factory.start();
    await flushMicrotasks();
    expect(created.map((c) => c.lw.watchCalls.length)).toEqual([1, 1]);
    expect(await factory.waitForCacheSync()).toBe(true);
    expect(cms.hasSynced() && secrets.hasSynced()).toBe(true);
    await factory.shutdown();
    expect(created.map((c) => c.lw.openWatches)).toEqual([0, 0]);
    expect(cms.isStopped() && secrets.isStopped()).toBe(true);
    factory.start();
    expect(() => factory.informerFor(BuiltinResources.pods)).toThrow(/shut down/);
  });

  it("listerFor reads the shared informer's cache", async () => {
    const { factory } = makeFactory();
    const lister = factory.listerFor(BuiltinResources.configMaps);
    factory.start();
    await flushMicrotasks();
    await factory.waitForCacheSync();
    expect(lister.get("ns1", "one")?.metadata?.name).toBe("one");
  });

  it("needs a kubeConfig or a listWatchFor", () => {
    expect(() => new SharedInformerFactory(undefined)).toThrow(/KubeConfig or a listWatchFor/);
  });
});

describe("Lister", () => {
  const ix = new Indexer();
  ix.add({ metadata: { namespace: "a", name: "web", labels: { app: "web", tier: "front" } } });
  ix.add({ metadata: { namespace: "a", name: "db", labels: { app: "db" } } });
  ix.add({ metadata: { namespace: "b", name: "web", labels: { app: "web" } } });
  ix.add({ metadata: { name: "cluster-thing" } });
  const lister = new Lister(ix);
  const names = (xs: Array<{ metadata?: { namespace?: string; name?: string } }>) =>
    xs.map((x) => `${x.metadata?.namespace ?? ""}/${x.metadata?.name}`).sort();

  it("gets by namespace and name, cluster-scoped with an empty namespace", () => {
    expect(lister.get("a", "db")?.metadata?.labels).toEqual({ app: "db" });
    expect(lister.get("b", "db")).toBeUndefined();
    expect(lister.get("", "cluster-thing")?.metadata?.name).toBe("cluster-thing");
    expect(() => lister.get("a", "")).toThrow(/needs a name/);
  });

  it("lists with a selector string, a matchLabels map or nothing", () => {
    expect(names(lister.list())).toHaveLength(4);
    expect(names(lister.list("app=web"))).toEqual(["a/web", "b/web"]);
    expect(names(lister.list("app=web,tier=front"))).toEqual(["a/web"]);
    expect(names(lister.list({ app: "db" }))).toEqual(["a/db"]);
    expect(names(lister.list("app notin (web,db)"))).toEqual(["/cluster-thing"]);
  });

  it("offers a namespaced view", () => {
    const a = lister.namespace("a");
    expect(names(a.list())).toEqual(["a/db", "a/web"]);
    expect(names(a.list("app=web"))).toEqual(["a/web"]);
    expect(a.get("web")?.metadata?.labels?.tier).toBe("front");
    expect(lister.namespace("b").get("db")).toBeUndefined();
  });
});
