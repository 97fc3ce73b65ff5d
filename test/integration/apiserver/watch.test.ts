import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/fake-clock.js";
import { cm, openWatch, request, serverPerTest, until } from "./helpers.js";

const CMS = "/api/v1/namespaces/w/configmaps";

describe("watch streaming", () => {
  const start = serverPerTest();

  it("streams one JSON event per line with Content-Type application/json", async () => {
    const s = await start({}, ["w"]);
    const w = openWatch(s, `${CMS}?watch=true`);
    await w.head;
    expect(w.status).toBe(200);
    expect(w.contentType).toBe("application/json");
    await request(s, "POST", CMS, { body: cm("a", { k: "1" }) });
    await request(s, "PUT", `${CMS}/a`, { body: cm("a", { k: "2" }) });
    await request(s, "DELETE", `${CMS}/a`);
    await until(() => w.events().length === 3);
    expect(w.events().map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    expect(w.events()[1].object.data).toEqual({ k: "2" });
    w.close();
  });

  it("supports the legacy /watch/ path", async () => {
    const s = await start({}, ["w"]);
    const w = openWatch(s, "/api/v1/watch/namespaces/w/configmaps");
    await w.head;
    await request(s, "POST", CMS, { body: cm("legacy") });
    await until(() => w.events().length === 1);
    expect(w.events()[0]).toMatchObject({ type: "ADDED", object: { metadata: { name: "legacy" } } });
    w.close();
  });

  it("ends the stream after timeoutSeconds on the server's clock", async () => {
    const clock = new FakeClock();
    const s = await start({ clock }, ["w"]);
    const w = openWatch(s, `${CMS}?watch=1&timeoutSeconds=60`);
    await w.head;
    await clock.advance(59_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.ended).toBe(false);
    await clock.advance(1_000);
    await w.end;
    expect(w.ended).toBe(true);
    await until(() => s.openWatches === 0);
  });

  it("sends a BOOKMARK just before the timeout ends a watch that allows bookmarks", async () => {
    const clock = new FakeClock();
    const s = await start({ clock }, ["w"]);
    const created = await request(s, "POST", CMS, { body: cm("seen") });
    const plain = openWatch(s, `${CMS}?watch=1&timeoutSeconds=30`);
    const w = openWatch(s, `${CMS}?watch=1&timeoutSeconds=30&allowWatchBookmarks=true`);
    await Promise.all([plain.head, w.head]);
    await clock.advance(30_000);
    await Promise.all([plain.end, w.end]);
    const last = w.events().at(-1);
    expect(last?.type).toBe("BOOKMARK");
    expect(Number(last?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(created.json.metadata.resourceVersion),
    );
    expect(plain.events().some((e) => e.type === "BOOKMARK")).toBe(false);
  });

  it("a huge timeoutSeconds does not end the watch at once (Node timers overflow past 2^31 ms)", async () => {
    const s = await start({}, ["w"]);
    const w = openWatch(s, `${CMS}?watch=1&timeoutSeconds=999999999`);
    await w.head;
    await new Promise((r) => setTimeout(r, 100));
    expect(w.ended).toBe(false);
    expect(s.openWatches).toBe(1);
    w.close();
  });

  it("defaults the timeout to 1800 s x U[1,2) like kube-apiserver", async () => {
    const clock = new FakeClock();
    const s = await start({ clock, random: () => 0.5 }, ["w"]);
    const w = openWatch(s, `${CMS}?watch=true`);
    await w.head;
    await clock.advance(2699_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.ended).toBe(false);
    await clock.advance(1_000);
    await w.end;
    expect(w.ended).toBe(true);
  });

  it("stops the backend watch when the client disconnects", async () => {
    const s = await start({}, ["w"]);
    const w = openWatch(s, `${CMS}?watch=true`);
    await w.head;
    expect(s.openWatches).toBe(1);
    w.close();
    await until(() => s.openWatches === 0);
    // Writes after the disconnect are harmless.
    expect((await request(s, "POST", CMS, { body: cm("after") })).status).toBe(201);
  });

  it("lets a reading client drain a burst bigger than the soft limit (the initial events of a big watch)", async () => {
    const s = await start({ maxWatchBufferedBytes: 64 * 1024 }, ["w"]);
    const big = "y".repeat(10 * 1024);
    for (let i = 0; i < 20; i++) await request(s, "POST", CMS, { body: cm(`burst-${i}`, { big }) });
    const w = openWatch(s, `${CMS}?watch=true`); // no resourceVersion: 200 KB of initial ADDED events at once
    await until(() => w.events().length === 20);
    expect(w.ended).toBe(false);
    expect(s.openWatches).toBe(1);
    w.close();
  });

  it("closes a client that does not read instead of buffering without bound", async () => {
    const s = await start({ maxWatchBufferedBytes: 64 * 1024, slowWatchGraceMs: 0 }, ["w"]);
    const https = await import("node:https");
    const url = new URL(s.url);
    let received = 0;
    let ended = false;
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${CMS}?watch=true`,
        headers: { authorization: `Bearer ${s.token}` },
        ca: s.caPem,
        agent: false,
      },
      (res) => {
        res.pause(); // never read: the socket buffers fill up
        res.on("close", () => {
          ended = true;
        });
        res.on("data", (c: Buffer) => {
          received += c.length;
        });
      },
    );
    req.on("error", () => {
      ended = true;
    });
    req.end();
    await until(() => s.openWatches === 1);
    const big = "x".repeat(100 * 1024);
    for (let i = 0; i < 100 && s.openWatches > 0; i++) {
      await request(s, "POST", CMS, { body: cm(`big-${i}`, { big }) });
    }
    await until(() => s.openWatches === 0);
    expect(received).toBeLessThan(100 * 100 * 1024);
    req.destroy();
    await until(() => ended);
  });
});
