import { describe, expect, it } from "vitest";
import { apiError, configMap, recorder, setup } from "./helpers.js";

describe("backend watch", () => {
  it("RV '' sends synthetic ADDED for the current state, then live events", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a"));
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: "" }, sink);
    const b = backend.create(cm, "default", configMap("b"));
    expect(sink.summary()).toEqual([
      `ADDED a@${Number(b.metadata?.resourceVersion) - 1}`,
      `ADDED b@${b.metadata?.resourceVersion}`,
    ]);
  });

  it("RV=N replays exactly the events after N, with no synthetic events", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a", { v: "1" }));
    const start = a.metadata!.resourceVersion!;
    const a2 = backend.update(cm, "default", "a", { ...a, data: { v: "2" } });
    backend.create(cm, "default", configMap("b"));
    backend.delete(cm, "default", "a");
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: start }, sink);
    const rv = Number(a2.metadata?.resourceVersion);
    expect(sink.summary()).toEqual([`MODIFIED a@${rv}`, `ADDED b@${rv + 1}`, `DELETED a@${rv + 2}`]);
    // the DELETED event carries the last state stamped with the deletion revision
    expect(sink.events[2]!.object.data).toEqual({ v: "2" });
  });

  it("only sees its namespace and resource", () => {
    const { backend, cm, secrets } = setup();
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: String(backend.currentRevision()) }, sink);
    backend.create(cm, "kube-system", configMap("other-ns"));
    backend.create(secrets, "default", { metadata: { name: "s" } });
    backend.create(cm, "default", configMap("mine"));
    expect(sink.events.map((e) => e.object.metadata?.name)).toEqual(["mine"]);
  });

  it("a resourceVersion older than the history window gets one 410 ERROR event, then the stream closes", () => {
    const { backend, cm } = setup({ historySize: 3 });
    const first = backend.create(cm, "default", configMap("a"));
    for (let i = 0; i < 5; i++) backend.create(cm, "default", configMap(`x${i}`));
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: first.metadata!.resourceVersion! }, sink);
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]!.type).toBe("ERROR");
    const status = sink.events[0]!.object as unknown as { code: number; reason: string; message: string };
    expect(status.code).toBe(410);
    expect(status.reason).toBe("Expired");
    const compacted = backend.currentRevision() - 3;
    expect(status.message).toBe(
      `too old resource version: ${first.metadata?.resourceVersion} (${compacted})`,
    );
    expect(sink.closed).toBe(true);
    expect(backend.stats()).toEqual({
      revision: backend.currentRevision(),
      compactedRevision: compacted,
      historyEvents: 3,
      historyCapacity: 3,
      watches: 0,
    });
    // the newest retained window still resumes
    const ok = recorder();
    backend.watch(cm, "default", { resourceVersion: String(compacted) }, ok);
    expect(ok.events.map((e) => e.type)).toEqual(["ADDED", "ADDED", "ADDED"]);
  });

  it("compactHistory makes every older resourceVersion expire", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a"));
    backend.create(cm, "default", configMap("b"));
    backend.compactHistory();
    const sink = recorder();
    backend.watch(cm, "default", { resourceVersion: a.metadata!.resourceVersion! }, sink);
    expect(sink.events[0]!.type).toBe("ERROR");
    const live = recorder();
    backend.watch(cm, "default", { resourceVersion: String(backend.currentRevision()) }, live);
    backend.create(cm, "default", configMap("c"));
    expect(live.events.map((e) => e.type)).toEqual(["ADDED"]);
  });

  it("a too-new resourceVersion is 504 Timeout with cause ResourceVersionTooLarge", () => {
    const { backend, cm } = setup();
    const err = apiError(() => backend.watch(cm, "default", { resourceVersion: "99999" }, recorder()));
    expect(err.code).toBe(504);
    expect(err.status.details?.causes?.[0]?.reason).toBe("ResourceVersionTooLarge");
    expect(err.status.details?.retryAfterSeconds).toBe(1);
  });

  it("serializes each event once and shares it across watchers, filtered or not", () => {
    const { backend, cm } = setup();
    const rv = String(backend.currentRevision());
    const plain = recorder();
    const filtered = recorder();
    backend.watch(cm, "default", { resourceVersion: rv }, plain);
    backend.watch(cm, undefined, { resourceVersion: rv, labelSelector: "app=web" }, filtered);
    const a = backend.create(cm, "default", configMap("a", {}, { app: "web" }));
    backend.update(cm, "default", "a", { ...a, data: { k: "v" } });
    expect(filtered.events).toHaveLength(2);
    expect(filtered.events[0]).toBe(plain.events[0]);
    expect(filtered.events[1]).toBe(plain.events[1]);
    const line = plain.events[1]!.line();
    expect(plain.events[1]!.line()).toBe(line);
    expect(JSON.parse(line)).toEqual({
      type: "MODIFIED",
      object: JSON.parse(JSON.stringify(plain.events[1]!.object)),
    });
    expect(line.endsWith("}\n")).toBe(true);
  });

  it("translates updates that enter or leave a label selection into ADDED and DELETED", () => {
    const { backend, cm } = setup();
    const sink = recorder();
    backend.watch(
      cm,
      "default",
      { resourceVersion: String(backend.currentRevision()), labelSelector: "app=web" },
      sink,
    );
    const a = backend.create(cm, "default", configMap("a", {}, { app: "db" }));
    const a2 = backend.update(cm, "default", "a", {
      ...a,
      metadata: { ...a.metadata, labels: { app: "web" } },
    });
    const a3 = backend.update(cm, "default", "a", {
      ...a2,
      metadata: { ...a2.metadata, labels: { app: "db" } },
    });
    backend.delete(cm, "default", "a");
    expect(sink.summary()).toEqual([
      `ADDED a@${a2.metadata?.resourceVersion}`,
      `DELETED a@${a3.metadata?.resourceVersion}`,
    ]);
    // leaving the selection: the previous state (still matching) stamped with the new revision
    expect(sink.events[1]!.object.metadata?.labels).toEqual({ app: "web" });
  });

  it("field selectors filter watches too", () => {
    const { backend, cm } = setup();
    const sink = recorder();
    backend.watch(cm, undefined, { resourceVersion: "0", fieldSelector: "metadata.name=b" }, sink);
    backend.create(cm, "default", configMap("a"));
    backend.create(cm, "default", configMap("b"));
    expect(sink.events.map((e) => e.object.metadata?.name)).toEqual(["b"]);
  });

  it("sends periodic BOOKMARKs through the clock when allowed, and none otherwise", async () => {
    const { backend, cm, clock } = setup({ bookmarkIntervalMs: 60_000 });
    const withBookmarks = recorder();
    const without = recorder();
    backend.watch(cm, "default", { resourceVersion: "", allowWatchBookmarks: true }, withBookmarks);
    backend.watch(cm, "default", { resourceVersion: "" }, without);
    backend.create(cm, "default", configMap("a"));
    await clock.advance(59_000);
    expect(withBookmarks.events.map((e) => e.type)).toEqual(["ADDED"]);
    await clock.advance(1_000);
    expect(withBookmarks.events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);
    const bm = withBookmarks.events[1]!.object;
    expect(bm).toEqual({
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { resourceVersion: String(backend.currentRevision()) },
    });
    await clock.advance(60_000);
    expect(withBookmarks.events.filter((e) => e.type === "BOOKMARK")).toHaveLength(2);
    expect(without.events.map((e) => e.type)).toEqual(["ADDED"]);
    backend.stop();
    backend.stop();
    expect(clock.pendingTimers()).toBe(0);
    expect(withBookmarks.closed).toBe(true);
  });

  it("cancels the bookmark timer when the last bookmark watch stops", () => {
    const { backend, cm, clock } = setup();
    const a = backend.watch(cm, "default", { allowWatchBookmarks: true }, recorder());
    const b = backend.watch(cm, "default", { allowWatchBookmarks: true }, recorder());
    backend.watch(cm, "default", {}, recorder());
    expect(clock.pendingTimers()).toBe(1);
    a.stop();
    expect(clock.pendingTimers()).toBe(1);
    b.stop();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("sendInitialEvents=true ends the initial state with an initial-events-end BOOKMARK", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a"));
    const sink = recorder();
    const h = backend.watch(
      cm,
      "default",
      { sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: "NotOlderThan" },
      sink,
    );
    expect(sink.events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);
    expect(sink.events[1]!.object.metadata?.annotations).toEqual({ "k8s.io/initial-events-end": "true" });
    h.bookmark?.();
    expect(sink.events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK", "BOOKMARK"]);
  });

  it("validates sendInitialEvents and resourceVersionMatch together (422 ListOptions)", () => {
    const { backend, cm } = setup();
    const lone = apiError(() => backend.watch(cm, "default", { sendInitialEvents: true }, recorder()));
    expect(lone.code).toBe(422);
    expect(lone.status.details?.causes?.[0]?.message).toBe(
      "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
    );
    expect(
      apiError(() => backend.watch(cm, "default", { resourceVersionMatch: "NotOlderThan" }, recorder())).code,
    ).toBe(422);
    const off = recorder();
    backend.create(cm, "default", configMap("a"));
    backend.watch(cm, "default", { sendInitialEvents: false, resourceVersionMatch: "NotOlderThan" }, off);
    backend.create(cm, "default", configMap("b"));
    expect(off.events.map((e) => e.object.metadata?.name)).toEqual(["b"]);
  });

  it("stop() ends delivery and is idempotent; a throwing sink is dropped without breaking writes", () => {
    const { backend, cm } = setup();
    const sink = recorder();
    const h = backend.watch(cm, "default", { resourceVersion: "0" }, sink);
    h.stop();
    h.stop();
    const bad = {
      event: () => {
        throw new Error("client gone");
      },
      close: () => {},
    };
    backend.watch(cm, "default", { resourceVersion: "0" }, bad);
    backend.create(cm, "default", configMap("a"));
    expect(sink.events).toHaveLength(0);
    expect(backend.watchCount()).toBe(0);
  });
});
