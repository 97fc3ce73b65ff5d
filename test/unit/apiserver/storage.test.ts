import { describe, expect, it } from "vitest";
import { ChangeEvent } from "../../../src/control-plane/apiserver/storage/change-event.js";
import { EventHistory } from "../../../src/control-plane/apiserver/storage/event-history.js";
import { KeyHistory } from "../../../src/control-plane/apiserver/storage/key-history.js";
import { MvccStore } from "../../../src/control-plane/apiserver/storage/mvcc-store.js";
import { StoredVersion } from "../../../src/control-plane/apiserver/storage/stored-version.js";
import type { WatchEvent } from "../../../src/control-plane/apiserver/types.js";
import { apiError, configMap, setup } from "./helpers.js";

const v = (rev: number, deleted = false) =>
  StoredVersion.of(rev, { metadata: { name: "x", resourceVersion: String(rev) } }, deleted);

describe("KeyHistory", () => {
  it("answers reads at past revisions and compacts without changing answers at or after the compaction point", () => {
    const h = new KeyHistory();
    h.push(v(2));
    h.push(v(5));
    h.push(v(7, true));
    h.push(v(9));
    expect([1, 2, 4, 5, 6, 7, 8, 9, 10].map((r) => h.at(r)?.rev)).toEqual([
      undefined,
      2,
      2,
      5,
      5,
      undefined,
      undefined,
      9,
      9,
    ]);
    expect(() => h.push(v(9))).toThrow(/not newer/);
    expect(h.compact(6)).toBe(false);
    expect([6, 7, 9].map((r) => h.at(r)?.rev)).toEqual([5, undefined, 9]);
    expect(h.versions.map((x) => x.rev)).toEqual([5, 7, 9]);
  });

  it("a key deleted before the compaction point disappears entirely", () => {
    const h = new KeyHistory();
    h.push(v(1));
    h.push(v(3, true));
    expect(h.compact(4)).toBe(true);
  });
});

describe("EventHistory", () => {
  const ev = (rev: number) => new ChangeEvent("/cm", `k${rev}`, "ns", "ADDED", v(rev), undefined);
  it("keeps the newest `capacity` events and reports the compacted revision", () => {
    const dropped: number[] = [];
    const h = new EventHistory(3, (e) => dropped.push(e.rev));
    for (let r = 1; r <= 5; r++) h.append(ev(r));
    expect(h.size).toBe(3);
    expect(h.compactedRevision).toBe(2);
    expect(dropped).toEqual([1, 2]);
    expect(h.since(0).map((e) => e.rev)).toEqual([3, 4, 5]);
    expect(h.since(3).map((e) => e.rev)).toEqual([4, 5]);
    expect(h.since(5)).toEqual([]);
    h.compact(5);
    expect(h.size).toBe(0);
    expect(h.compactedRevision).toBe(5);
    expect(() => new EventHistory(0, () => {})).toThrow();
  });
});

describe("MvccStore", () => {
  it("stamps each write with the next revision and notifies listeners in order, even when a listener writes", () => {
    const store = new MvccStore(100);
    const seen: number[] = [];
    store.subscribe((e) => {
      seen.push(e.rev);
      if (e.rev === 1) store.put("/cm", "ns/b", "ns", { metadata: { name: "b" } });
    });
    const order: number[] = [];
    store.subscribe((e) => order.push(e.rev));
    const first = store.put("/cm", "ns/a", "ns", { metadata: { name: "a" } });
    expect(first.version.object().metadata?.resourceVersion).toBe("1");
    expect(seen).toEqual([1, 2]);
    expect(order).toEqual([1, 2]);
    expect(store.revision).toBe(2);
    const gone = store.remove("/cm", "ns/a", "ns");
    expect(gone?.type).toBe("DELETED");
    expect(gone?.version.object().metadata?.resourceVersion).toBe("3");
    expect(store.remove("/cm", "ns/a", "ns")).toBeUndefined();
  });
});

describe("watch re-entrancy", () => {
  it("a sink that writes during delivery does not reorder or duplicate events for other watchers", () => {
    const { backend, cm } = setup();
    const rv = String(backend.currentRevision());
    let wrote = false;
    const first: WatchEvent[] = [];
    backend.watch(
      cm,
      "default",
      { resourceVersion: rv },
      {
        event(e) {
          first.push(e);
          if (!wrote) {
            wrote = true;
            backend.create(cm, "default", configMap("reaction"));
          }
        },
        close() {},
      },
    );
    const second: WatchEvent[] = [];
    backend.watch(cm, "default", { resourceVersion: rv }, { event: (e) => second.push(e), close() {} });
    backend.create(cm, "default", configMap("trigger"));
    const names = (evs: WatchEvent[]) => evs.map((e) => e.object.metadata?.name);
    expect(backend.currentRevision()).toBe(Number(rv) + 2);
    expect(names(first)).toEqual(["trigger", "reaction"]);
    expect(names(second)).toEqual(["trigger", "reaction"]);
  });
});

describe("bookmarks during fan-out", () => {
  it("a bookmark requested while a change is being delivered never claims that change", () => {
    const { backend, cm } = setup();
    const rv = backend.currentRevision();
    const seen: string[] = [];
    let handle: { bookmark?(): void } = {};
    // registered first, so it is told about the change before the watcher below has received it
    backend.watch(
      cm,
      "default",
      { resourceVersion: String(rv) },
      {
        event() {
          handle.bookmark?.();
        },
        close() {},
      },
    );
    handle = backend.watch(
      cm,
      "default",
      { resourceVersion: String(rv), allowWatchBookmarks: true },
      {
        event(e) {
          seen.push(`${e.type}@${e.object.metadata?.resourceVersion}`);
        },
        close() {},
      },
    );
    backend.create(cm, "default", configMap("a"));
    expect(seen).toEqual([`BOOKMARK@${rv}`, `ADDED@${rv + 1}`]);
    handle.bookmark?.();
    expect(seen[2]).toBe(`BOOKMARK@${rv + 1}`);
  });
});

describe("immutable ConfigMaps and Secrets", () => {
  it("forbid data changes once immutable is set", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", { ...configMap("a", { k: "1" }), immutable: true });
    const err = apiError(() => backend.update(cm, "default", "a", { ...a, data: { k: "2" } }));
    expect(err.code).toBe(422);
    expect(err.status.details?.causes?.[0]?.message).toBe(
      "Forbidden: field is immutable when `immutable` is set",
    );
    expect(apiError(() => backend.update(cm, "default", "a", { ...a, immutable: false })).code).toBe(422);
    const labelled = backend.update(cm, "default", "a", {
      ...a,
      metadata: { ...a.metadata, labels: { ok: "yes" } },
    });
    expect(labelled.metadata?.labels).toEqual({ ok: "yes" });
  });
});

describe("StoredVersion", () => {
  it("parses lazily from its bytes when no object is cached, frozen and equal to the JSON", () => {
    const json = JSON.stringify({ metadata: { name: "x", labels: { a: "b" } }, data: { k: "v" } });
    const sv = new StoredVersion(7, json, false);
    const obj = sv.object();
    expect(obj).toEqual(JSON.parse(json));
    expect(Object.isFrozen(obj.metadata)).toBe(true);
    expect(sv.labels).toEqual({ a: "b" });
    expect(sv.object()).toBe(obj);
  });
});
