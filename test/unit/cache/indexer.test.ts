import { describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import {
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
  OWNER_UID_INDEX,
  ownerUIDIndexFunc,
} from "../../../src/cache/index-funcs.js";
import { Indexer } from "../../../src/cache/indexer.js";
import {
  DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  isDeletedFinalStateUnknown,
} from "../../../src/cache/tombstone.js";

function obj(ns: string, name: string, extra: Partial<NonNullable<MetaObject["metadata"]>> = {}): MetaObject {
  return { metadata: { namespace: ns, name, resourceVersion: "1", ...extra } };
}
const owned = (ns: string, name: string, ...owners: string[]) =>
  obj(ns, name, {
    ownerReferences: owners.map((uid) => ({ apiVersion: "v1", uid, kind: "Parent", name: uid })),
  });

describe("Indexer", () => {
  it("add and update are upserts keyed namespace/name; cluster-scoped keys are the name", () => {
    const ix = new Indexer();
    ix.add(obj("a", "x"));
    ix.update(obj("a", "x", { resourceVersion: "2" }));
    ix.update(obj("b", "y"));
    ix.add({ metadata: { name: "node-1" } });
    expect(ix.listKeys().sort()).toEqual(["a/x", "b/y", "node-1"]);
    expect(ix.getByKey("a/x")?.metadata?.resourceVersion).toBe("2");
  });

  it("delete of an unknown key is a no-op; delete by tombstone uses its key", () => {
    const ix = new Indexer();
    ix.add(obj("a", "x"));
    ix.delete(obj("a", "nope"));
    expect(ix.size).toBe(1);
    ix.delete(new DeletedFinalStateUnknown<MetaObject>("a/x", undefined));
    expect(ix.size).toBe(0);
    expect(ix.byIndex(NAMESPACE_INDEX, "a")).toEqual([]);
    expect(ix.listIndexFuncValues(NAMESPACE_INDEX)).toEqual([]);
  });

  it("has the namespace index built in and keeps it current on update and delete", () => {
    const ix = new Indexer();
    ix.add(obj("a", "x"));
    ix.add(obj("a", "y"));
    ix.add(obj("b", "z"));
    expect(ix.indexKeys(NAMESPACE_INDEX, "a").sort()).toEqual(["a/x", "a/y"]);
    ix.delete(obj("a", "x"));
    expect(ix.indexKeys(NAMESPACE_INDEX, "a")).toEqual(["a/y"]);
    expect(ix.listIndexFuncValues(NAMESPACE_INDEX).sort()).toEqual(["a", "b"]);
  });

  it("custom multi-valued index: byOwnerUID moves keys when owners change", () => {
    const ix = new Indexer(deletionHandlingMetaNamespaceKeyFunc, { [OWNER_UID_INDEX]: ownerUIDIndexFunc });
    ix.add(owned("a", "c1", "p1", "p2"));
    ix.add(owned("a", "c2", "p1"));
    expect(ix.indexKeys(OWNER_UID_INDEX, "p1").sort()).toEqual(["a/c1", "a/c2"]);
    ix.update(owned("a", "c1", "p3"));
    expect(ix.indexKeys(OWNER_UID_INDEX, "p1")).toEqual(["a/c2"]);
    expect(ix.indexKeys(OWNER_UID_INDEX, "p2")).toEqual([]);
    expect(ix.listIndexFuncValues(OWNER_UID_INDEX).sort()).toEqual(["p1", "p3"]);
    expect(
      ix
        .index(OWNER_UID_INDEX, owned("z", "probe", "p1", "p3"))
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(["c1", "c2"]);
    expect(ix.byIndex(OWNER_UID_INDEX, "p3").map((o) => o.metadata?.name)).toEqual(["c1"]);
  });

  it("replace swaps the content and rebuilds every index", () => {
    const ix = new Indexer(deletionHandlingMetaNamespaceKeyFunc, { [OWNER_UID_INDEX]: ownerUIDIndexFunc });
    ix.add(owned("a", "old", "p1"));
    ix.replace([owned("b", "new", "p2")], "10");
    expect(ix.listKeys()).toEqual(["b/new"]);
    expect(ix.indexKeys(OWNER_UID_INDEX, "p1")).toEqual([]);
    expect(ix.indexKeys(OWNER_UID_INDEX, "p2")).toEqual(["b/new"]);
    expect(ix.indexKeys(NAMESPACE_INDEX, "a")).toEqual([]);
  });

  it("addIndexers back-fills existing items and rejects a name conflict", () => {
    const ix = new Indexer();
    ix.add(owned("a", "c1", "p1"));
    ix.addIndexers({ [OWNER_UID_INDEX]: ownerUIDIndexFunc });
    expect(ix.indexKeys(OWNER_UID_INDEX, "p1")).toEqual(["a/c1"]);
    expect(() => ix.addIndexers({ [NAMESPACE_INDEX]: () => [] })).toThrow(/already exists/);
  });

  it("an unknown index name is a clear error", () => {
    const ix = new Indexer();
    expect(() => ix.byIndex("nope", "v")).toThrow("Index with name nope does not exist");
    expect(() => ix.listIndexFuncValues("nope")).toThrow(/does not exist/);
  });

  it("a throwing index function leaves the store unchanged", () => {
    const ix = new Indexer(deletionHandlingMetaNamespaceKeyFunc, {
      bad: (o) => {
        if (o.metadata?.name === "boom") throw new Error("kaput");
        return ["ok"];
      },
    });
    ix.add(obj("a", "fine"));
    expect(() => ix.add(obj("a", "boom"))).toThrow(/index "bad" failed on "a\/boom": kaput/);
    expect(ix.listKeys()).toEqual(["a/fine"]);
    expect(ix.indexKeys(NAMESPACE_INDEX, "a")).toEqual(["a/fine"]);
  });

  it("takes client-go's argument order and accepts the namespace index passed the client-go way", () => {
    const byName = (o: MetaObject | DeletedFinalStateUnknown<MetaObject>) =>
      isDeletedFinalStateUnknown(o) ? o.key : `name:${o.metadata?.name ?? ""}`;
    const ix = new Indexer(byName, { [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
    ix.add(obj("a", "x"));
    expect(ix.listKeys()).toEqual(["name:x"]);
    expect(ix.indexKeys(NAMESPACE_INDEX, "a")).toEqual(["name:x"]);
    // The same name with another function is still a conflict.
    expect(() => ix.addIndexers({ [NAMESPACE_INDEX]: () => ["other"] })).toThrow(/already exists/);
  });

  it("an object without a name is rejected", () => {
    expect(() => new Indexer().add({ metadata: {} })).toThrow(/no metadata.name/);
  });
});
