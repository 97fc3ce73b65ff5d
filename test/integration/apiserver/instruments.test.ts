import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/fake-clock.js";
import { cm, openWatch, request, serverPerTest, until } from "./helpers.js";

const CMS = "/api/v1/namespaces/i/configmaps";

describe("instruments", () => {
  const start = serverPerTest();

  it("counts requests per verb, resource and code, and bytes sent", async () => {
    const s = await start({}, ["i"]);
    const m = s.instruments!.metrics;
    m.reset(); // forget the setup requests
    await request(s, "POST", CMS, { body: cm("a") });
    await request(s, "POST", CMS, { body: cm("a") }); // 409 AlreadyExists
    await request(s, "GET", `${CMS}/a`);
    await request(s, "GET", CMS);
    await request(s, "GET", CMS);
    const snap = m.snapshot();
    expect(m.count({ verb: "create", resource: "configmaps", code: 201 })).toBe(1);
    expect(m.count({ verb: "create", resource: "configmaps", code: 409 })).toBe(1);
    expect(m.count({ verb: "get", resource: "configmaps" })).toBe(1);
    expect(m.count({ verb: "list", resource: "configmaps" })).toBe(2);
    expect(snap.totalRequests).toBe(5);
    expect(snap.bytesSent).toBeGreaterThan(100);
    m.reset();
    expect(m.snapshot()).toMatchObject({ totalRequests: 0, bytesSent: 0 });
  });

  it("tracks open watches and watch events", async () => {
    const s = await start({}, ["i"]);
    const m = s.instruments!.metrics;
    const w1 = openWatch(s, `${CMS}?watch=true`);
    const w2 = openWatch(s, `${CMS}?watch=true`);
    await Promise.all([w1.head, w2.head]);
    expect(m.snapshot().openWatches).toBe(2);
    expect(m.count({ verb: "watch", resource: "configmaps" })).toBe(2);
    await request(s, "POST", CMS, { body: cm("w") });
    await until(() => w1.events().length === 1 && w2.events().length === 1);
    expect(m.snapshot().watchEventsSent).toBe(2);
    w1.close();
    await until(() => m.snapshot().openWatches === 1);
    w2.close();
    await until(() => m.snapshot().openWatches === 0);
  });

  it("keeps bytes by verb and resource, and counts a watch's bytes while it is still open", async () => {
    const s = await start({}, ["i"]);
    const m = s.instruments!.metrics;
    await request(s, "POST", CMS, { body: cm("a") });
    m.reset();
    const list = await request(s, "GET", CMS);
    await request(s, "GET", `${CMS}/a`);
    expect(m.bytesSent({ verb: "list", resource: "configmaps" })).toBe(Buffer.byteLength(list.text));
    expect(m.bytesSent({ verb: "get", resource: "configmaps" })).toBeGreaterThan(50);
    const w = openWatch(s, `${CMS}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
    await w.head;
    expect(m.bytesSent({ verb: "watch" })).toBe(0);
    await request(s, "PUT", `${CMS}/a`, { body: cm("a", { v: "2" }) });
    await until(() => w.events().length === 1);
    // The watch is still open: its event's bytes are counted already.
    await until(() => m.bytesSent({ verb: "watch", resource: "configmaps" }) > 50);
    const snap = m.snapshot();
    expect(snap.openWatches).toBe(1);
    expect(snap.bytes.map((r) => `${r.verb} ${r.resource}`)).toEqual([
      "get configmaps",
      "list configmaps",
      "update configmaps",
      "watch configmaps",
    ]);
    expect(snap.bytes.reduce((n, r) => n + r.bytes, 0)).toBe(snap.bytesSent);
    const streamed = m.bytesSent({ verb: "watch" });
    w.close();
    await until(() => m.snapshot().openWatches === 0);
    // Closing adds no second count of what was already streamed.
    expect(m.bytesSent({ verb: "watch" })).toBe(streamed);
    m.reset();
    expect(m.snapshot().bytes).toEqual([]);
  });

  it("failNext fails the next N matching requests with a proper Status, then recovers", async () => {
    const s = await start({}, ["i"]);
    s.instruments!.faults.failNext("list", 2, 503, "configmaps");
    expect((await request(s, "GET", `${CMS}/none`)).status).toBe(404); // a get: not matched
    const first = await request(s, "GET", CMS);
    expect(first.status).toBe(503);
    expect(first.json).toMatchObject({ kind: "Status", reason: "ServiceUnavailable", code: 503 });
    expect((await request(s, "GET", CMS)).status).toBe(503);
    expect((await request(s, "GET", CMS)).status).toBe(200);
    s.instruments!.faults.failNext("*", 1, 500);
    expect((await request(s, "POST", CMS, { body: cm("x") })).json.reason).toBe("InternalError");
    expect(() => s.instruments!.faults.failNext("get", 0, 500)).toThrow(/count/);
    expect(() => s.instruments!.faults.failNext("get", 1, 200)).toThrow(/code/);
  });

  it("latency delays requests on the server's clock", async () => {
    const clock = new FakeClock();
    const s = await start({ clock }, ["i"]);
    s.instruments!.faults.latency(5000, "list");
    let done = false;
    const pending = request(s, "GET", CMS).then((r) => {
      done = true;
      return r;
    });
    await until(() => clock.pendingTimers() > 0);
    await clock.advance(4999);
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
    // Other verbs are not delayed.
    expect((await request(s, "GET", `${CMS}/x`)).status).toBe(404);
    s.instruments!.clear();
    expect((await request(s, "GET", CMS)).status).toBe(200);
  });

  it("dropWatches closes every open watch now", async () => {
    const s = await start({}, ["i"]);
    const w1 = openWatch(s, `${CMS}?watch=true`);
    const w2 = openWatch(s, `/api/v1/namespaces?watch=true`);
    await Promise.all([w1.head, w2.head]);
    expect(s.instruments!.faults.dropWatches()).toBe(2);
    await Promise.all([w1.end, w2.end]);
    expect(s.openWatches).toBe(0);
  });

  it("dropWatchesEvery(n) ends each watch after n events", async () => {
    const s = await start({}, ["i"]);
    s.instruments!.faults.dropWatchesEvery(2);
    const w = openWatch(s, `${CMS}?watch=true`);
    await w.head;
    for (const n of ["a", "b", "c"]) await request(s, "POST", CMS, { body: cm(n) });
    await w.end;
    expect(w.events().map((e) => e.object.metadata.name)).toEqual(["a", "b"]);
  });

  it("compactHistory makes a resume from an old resourceVersion fail with 410 Expired in the stream", async () => {
    const s = await start({}, ["i"]);
    const created = await request(s, "POST", CMS, { body: cm("old") });
    const rv = created.json.metadata.resourceVersion;
    await request(s, "PUT", `${CMS}/old`, { body: cm("old", { v: "2" }) });
    s.instruments!.faults.compactHistory();
    const w = openWatch(s, `${CMS}?watch=true&resourceVersion=${rv}`);
    await w.end;
    expect(w.status).toBe(200);
    expect(w.events()).toHaveLength(1);
    expect(w.events()[0]).toMatchObject({
      type: "ERROR",
      object: { kind: "Status", code: 410, reason: "Expired" },
    });
  });
});
