import { describe, expect, it } from "vitest";
import { AbsentOwnerCache } from "../../../src/control-plane/builtin-controllers/garbage-collector/absent-owner-cache.js";
import {
  type GraphNode,
  OwnerGraph,
} from "../../../src/control-plane/builtin-controllers/garbage-collector/graph.js";

function node(
  uid: string,
  owners: Array<{ uid: string; block?: boolean }> = [],
  namespace = "ns",
): GraphNode {
  return {
    identity: { apiVersion: "v1", kind: "ConfigMap", name: uid, namespace, uid },
    owners: owners.map((o) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      name: o.uid,
      uid: o.uid,
      blockOwnerDeletion: o.block,
    })),
    dependents: new Set(),
    beingDeleted: false,
    deletingDependents: false,
    virtual: false,
  };
}

describe("OwnerGraph", () => {
  it("links dependents to owners, creating virtual owners in the dependent's namespace for unseen uids", () => {
    const g = new OwnerGraph();
    const created = g.insert(node("kid", [{ uid: "mom" }]));
    expect(created.map((n) => n.identity.uid)).toEqual(["mom"]);
    const mom = g.get("mom")!;
    expect(mom.virtual).toBe(true);
    expect(mom.identity.namespace).toBe("ns");
    expect([...mom.dependents].map((n) => n.identity.uid)).toEqual(["kid"]);
    // A second dependent of the same owner reuses the node: nothing new to verify.
    expect(g.insert(node("kid2", [{ uid: "mom" }]))).toEqual([]);
    expect(mom.dependents.size).toBe(2);
  });

  it("setOwners unlinks removed owners (forgetting unreferenced virtual ones) and links added ones", () => {
    const g = new OwnerGraph();
    g.insert(node("mom"));
    const kid = node("kid", [{ uid: "mom" }, { uid: "ghost" }]);
    g.insert(kid);
    expect(g.get("ghost")?.virtual).toBe(true);
    const created = g.setOwners(kid, [{ apiVersion: "v1", kind: "ConfigMap", name: "dad", uid: "dad" }]);
    expect(created.map((n) => n.identity.uid)).toEqual(["dad"]);
    expect(g.get("mom")?.dependents.size).toBe(0);
    expect(g.get("ghost")).toBeUndefined();
    expect(g.get("dad")?.dependents.has(kid)).toBe(true);
  });

  it("remove drops the node and its links to owners; blockingDependents only counts blockOwnerDeletion refs", () => {
    const g = new OwnerGraph();
    const mom = node("mom");
    g.insert(mom);
    const blocker = node("blocker", [{ uid: "mom", block: true }]);
    const free = node("free", [{ uid: "mom", block: false }]);
    g.insert(blocker);
    g.insert(free);
    expect(g.blockingDependents(mom)).toEqual([blocker]);
    g.remove(blocker);
    expect(g.get("blocker")).toBeUndefined();
    expect(g.blockingDependents(mom)).toEqual([]);
    expect(mom.dependents.has(free)).toBe(true);
  });
});

describe("AbsentOwnerCache", () => {
  it("keeps at most its capacity, evicting the least recently used", () => {
    const cache = new AbsentOwnerCache(2);
    cache.add("a");
    cache.add("b");
    expect(cache.has("a")).toBe(true); // a is now the most recent
    cache.add("c"); // evicts b
    expect(cache.has("b")).toBe(false);
    expect(cache.has("a")).toBe(true);
    expect(cache.has("c")).toBe(true);
  });
});
