import { describe, expect, it } from "vitest";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import {
  fieldIndexName,
  Indexer,
  indexField,
  keyToNamespacedKey,
  listByField,
} from "../../../src/cache/index.js";

type Site = MetaObject & { spec: { secret?: string } };
const site = (namespace: string, name: string, secret?: string): Site => ({
  metadata: { namespace, name },
  spec: secret === undefined ? {} : { secret },
});
const bySecret = (s: Site) => (s.spec.secret ? [s.spec.secret] : []);
const names = (list: Site[]) => list.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`).sort();

describe("indexField and listByField", () => {
  it("files each value under the namespace and under every namespace, as controller-runtime does", () => {
    const indexer = new Indexer<Site>();
    indexField(indexer, "spec.secret", bySecret);
    indexer.add(site("a", "one", "tls"));
    expect(Object.keys(indexer.getIndexers())).toContain("field:spec.secret");
    expect(fieldIndexName("spec.secret")).toBe("field:spec.secret");
    expect(indexer.listIndexFuncValues("field:spec.secret").sort()).toEqual([
      "__all_namespaces/tls",
      "a/tls",
    ]);
    expect(keyToNamespacedKey("", "x")).toBe("__all_namespaces/x");
  });

  it("answers by namespace and across namespaces, and follows updates and deletes", () => {
    const indexer = new Indexer<Site>();
    indexer.add(site("a", "before-index", "tls"));
    indexField(indexer, "spec.secret", bySecret); // back-fills what is already cached
    indexer.add(site("a", "two", "tls"));
    indexer.add(site("b", "three", "tls"));
    indexer.add(site("a", "other", "db"));
    indexer.add(site("a", "none"));
    expect(names(listByField(indexer, "spec.secret", "tls"))).toEqual(["a/before-index", "a/two", "b/three"]);
    expect(names(listByField(indexer, "spec.secret", "tls", "a"))).toEqual(["a/before-index", "a/two"]);
    indexer.update(site("a", "two", "db"));
    indexer.delete(site("b", "three", "tls"));
    expect(names(listByField(indexer, "spec.secret", "tls"))).toEqual(["a/before-index"]);
    expect(names(listByField(indexer, "spec.secret", "db", "a"))).toEqual(["a/other", "a/two"]);
  });

  it("gives the same set as a scan of the cache", () => {
    const indexer = new Indexer<Site>();
    indexField(indexer, "spec.secret", bySecret);
    for (let i = 0; i < 500; i++) indexer.add(site(`ns${i % 3}`, `s${i}`, `secret-${i % 7}`));
    const scanned = indexer
      .list()
      .filter((s) => s.spec.secret === "secret-3" && s.metadata?.namespace === "ns1");
    expect(names(listByField(indexer, "spec.secret", "secret-3", "ns1"))).toEqual(names(scanned));
  });

  it("refuses a field that was never indexed, and a second function for the same field", () => {
    const indexer = new Indexer<Site>();
    expect(() => listByField(indexer, "spec.secret", "tls")).toThrow(/field:spec.secret does not exist/);
    indexField(indexer, "spec.secret", bySecret);
    expect(() => indexField(indexer, "spec.secret", bySecret)).toThrow(/indexer conflict/);
  });
});
