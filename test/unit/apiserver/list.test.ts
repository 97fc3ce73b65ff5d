import { describe, expect, it } from "vitest";
import { apiError, configMap, setup } from "./helpers.js";

function names(list: { items: { metadata?: { name?: string } }[] }): string[] {
  return list.items.map((i) => i.metadata?.name ?? "");
}

describe("backend list", () => {
  it("paginates with limit/continue at the first page's revision", () => {
    const { backend, cm } = setup();
    for (const n of ["a", "b", "c", "d", "e"]) backend.create(cm, "default", configMap(n));
    const p1 = backend.list(cm, "default", { limit: 2 });
    expect(names(p1)).toEqual(["a", "b"]);
    expect(p1.metadata.remainingItemCount).toBe(3);
    expect(p1.metadata.continue).toBeTruthy();
    // changes after the first page are invisible to later pages
    backend.delete(cm, "default", "c");
    backend.create(cm, "default", configMap("bb"));
    const p2 = backend.list(cm, "default", { limit: 2, continue: p1.metadata.continue! });
    expect(names(p2)).toEqual(["c", "d"]);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
    const p3 = backend.list(cm, "default", { limit: 2, continue: p2.metadata.continue! });
    expect(names(p3)).toEqual(["e"]);
    expect(p3.metadata.continue).toBeUndefined();
    expect(names(backend.list(cm, "default", {}))).toEqual(["a", "b", "bb", "d", "e"]);
  });

  it("counts remainingItemCount right on every page, for interleaved readers and writes between pages", () => {
    const { backend, cm } = setup();
    const all = Array.from({ length: 50 }, (_, i) => `cm-${String(i).padStart(2, "0")}`);
    for (const n of all) backend.create(cm, "default", configMap(n));
    const readers = [3, 7].map((limit) => ({
      limit,
      token: undefined as string | undefined,
      seen: 0,
      done: false,
    }));
    let writes = 0;
    while (readers.some((r) => !r.done)) {
      for (const r of readers) {
        if (r.done) continue;
        const page = backend.list(cm, "default", {
          limit: r.limit,
          ...(r.token ? { continue: r.token } : {}),
        });
        expect(names(page)).toEqual(all.slice(r.seen, r.seen + r.limit));
        r.seen += page.items.length;
        // Later writes are invisible to a continued list, and so to its count.
        expect(page.metadata.remainingItemCount).toBe(
          page.metadata.continue ? all.length - r.seen : undefined,
        );
        r.token = page.metadata.continue;
        r.done = !r.token;
        backend.create(cm, "default", configMap(`zz-${writes++}`));
        backend.delete(cm, "default", `zz-${writes - 1}`);
      }
    }
    expect(readers.map((r) => r.seen)).toEqual([50, 50]);
  });

  it("serves resourceVersionMatch=Exact at a past revision, and RV=N with a limit exactly", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a", { v: "1" }));
    const rv = a.metadata!.resourceVersion!;
    backend.update(cm, "default", "a", { ...a, data: { v: "2" } });
    backend.create(cm, "default", configMap("b"));
    const exact = backend.list(cm, "default", { resourceVersion: rv, resourceVersionMatch: "Exact" });
    expect(exact.metadata.resourceVersion).toBe(rv);
    expect(exact.items.map((i) => i.data)).toEqual([{ v: "1" }]);
    const limited = backend.list(cm, "default", { resourceVersion: rv, limit: 10 });
    expect(names(limited)).toEqual(["a"]);
    const notOlder = backend.list(cm, "default", { resourceVersion: rv });
    expect(names(notOlder)).toEqual(["a", "b"]);
    expect(notOlder.metadata.resourceVersion).toBe(String(backend.currentRevision()));
  });

  it("rejects compacted revisions with 410 and future ones with 504", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a"));
    backend.create(cm, "default", configMap("a2"));
    const p1 = backend.list(cm, "default", { limit: 1 });
    expect(p1.metadata.continue).toBeTruthy();
    backend.create(cm, "default", configMap("b"));
    backend.create(cm, "default", configMap("c"));
    backend.compactHistory();
    const old = apiError(() =>
      backend.list(cm, "default", {
        resourceVersion: a.metadata!.resourceVersion!,
        resourceVersionMatch: "Exact",
      }),
    );
    expect(old.code).toBe(410);
    expect(old.reason).toBe("Expired");
    const cont = apiError(() => backend.list(cm, "default", { limit: 1, continue: p1.metadata.continue! }));
    expect(cont.code).toBe(410);
    const future = apiError(() => backend.list(cm, "default", { resourceVersion: "100000" }));
    expect(future.code).toBe(504);
  });

  it("rejects malformed continue tokens and RV with continue (400)", () => {
    const { backend, cm } = setup();
    expect(apiError(() => backend.list(cm, "default", { continue: "garbage" })).code).toBe(400);
    backend.create(cm, "default", configMap("a"));
    backend.create(cm, "default", configMap("b"));
    const p1 = backend.list(cm, "default", { limit: 1 });
    const err = apiError(() =>
      backend.list(cm, "default", { continue: p1.metadata.continue!, resourceVersion: "1" }),
    );
    expect(err.code).toBe(400);
    expect(apiError(() => backend.list(cm, "default", { resourceVersion: "abc" })).code).toBe(400);
  });

  it("filters by label selector operators", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("web1", {}, { app: "web", tier: "front" }));
    backend.create(cm, "default", configMap("web2", {}, { app: "web" }));
    backend.create(cm, "default", configMap("db", {}, { app: "db", tier: "back" }));
    backend.create(cm, "default", configMap("none"));
    const sel = (labelSelector: string) => names(backend.list(cm, "default", { labelSelector }));
    expect(sel("app=web")).toEqual(["web1", "web2"]);
    expect(sel("app==web")).toEqual(["web1", "web2"]);
    expect(sel("app!=web")).toEqual(["db", "none"]);
    expect(sel("app in (db, web),tier")).toEqual(["db", "web1"]);
    expect(sel("app notin (web)")).toEqual(["db", "none"]);
    expect(sel("tier")).toEqual(["db", "web1"]);
    expect(sel("!tier")).toEqual(["none", "web2"]);
    expect(sel("app=web,!tier")).toEqual(["web2"]);
    const bad = apiError(() => backend.list(cm, "default", { labelSelector: "app in web" }));
    expect(bad.code).toBe(400);
  });

  it("filters by field selector and rejects unsupported fields with 400", () => {
    const { backend, cm, ns } = setup();
    backend.create(cm, "default", configMap("a"));
    backend.create(cm, "kube-system", configMap("a"));
    backend.create(cm, "default", configMap("b"));
    const all = (fieldSelector: string) =>
      backend
        .list(cm, undefined, { fieldSelector })
        .items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`);
    expect(all("metadata.name=a")).toEqual(["default/a", "kube-system/a"]);
    expect(all("metadata.name==a,metadata.namespace!=default")).toEqual(["kube-system/a"]);
    expect(all("metadata.namespace=default,metadata.name!=a")).toEqual(["default/b"]);
    const err = apiError(() => backend.list(cm, undefined, { fieldSelector: "data.x=1" }));
    expect(err.code).toBe(400);
    expect(err.message).toBe(
      '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(names(backend.list(ns, undefined, { fieldSelector: "status.phase=Active" }))).toContain("default");
  });

  it("lists cluster-scoped kinds without a namespace", () => {
    const { backend, ns } = setup();
    expect(names(backend.list(ns, undefined, {}))).toEqual([
      "default",
      "kube-node-lease",
      "kube-public",
      "kube-system",
    ]);
  });
});
