import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { KUBECTL } from "../../support/kubectl.js";
import { bfield, entry, envelope, fields, sfield } from "../../support/proto-encoder.js";
import { connectH2, h2Request, h2Watch } from "./h2-client.js";
import { cm, openWatch, request, serverPerTest, until } from "./helpers.js";

const run = promisify(execFile);
const CMS = "/api/v1/namespaces/h2/configmaps";
/** HTTP/1.1 hop-by-hop headers: forbidden in HTTP/2 (RFC 9113 section 8.2.2). */
const HOP_BY_HOP = ["connection", "transfer-encoding", "keep-alive", "upgrade", "proxy-connection"];

function expectNoHopByHop(headers: Record<string, unknown>) {
  for (const name of HOP_BY_HOP) expect(headers[name], name).toBeUndefined();
}

/** The protocol the server picks when the client offers `protocols` in its TLS hello (false: no ALPN). */
function negotiate(url: string, caPem: string, protocols: string[] | undefined): Promise<string | false> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: hostname, port: Number(port), ca: caPem, ...(protocols ? { ALPNProtocols: protocols } : {}) },
      () => {
        resolve(socket.alpnProtocol ?? false);
        socket.destroy();
      },
    );
    socket.on("error", reject);
  });
}

describe("HTTP/2 (ALPN h2 and http/1.1 on one port)", () => {
  const start = serverPerTest();

  it("negotiates h2 when the client offers it and http/1.1 when it does not", async () => {
    const server = await start();
    expect(await negotiate(server.url, server.caPem, ["h2", "http/1.1"])).toBe("h2");
    expect(await negotiate(server.url, server.caPem, ["http/1.1"])).toBe("http/1.1");
    expect(await negotiate(server.url, server.caPem, undefined)).toBe(false);
    // A client without ALPN (client-node's https agent) is served HTTP/1.1 on the same port.
    const res = await request(server, "GET", "/api/v1/namespaces/default");
    expect(res.status).toBe(200);
  });

  it("serves GET, LIST, 404 and 401 as JSON and Status, without hop-by-hop headers", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      expect(session.alpnProtocol).toBe("h2");
      const created = await h2Request(session, server, "POST", CMS, { body: cm("one", { k: "v" }) });
      expect(created.status).toBe(201);
      const got = await h2Request(session, server, "GET", `${CMS}/one`);
      expect([got.status, got.json.kind, got.json.data]).toEqual([200, "ConfigMap", { k: "v" }]);
      expect(got.headers["content-type"]).toBe("application/json");
      expectNoHopByHop(got.headers);
      const list = await h2Request(session, server, "GET", CMS);
      expect([list.status, list.json.kind, list.json.items.length]).toEqual([200, "ConfigMapList", 1]);
      const missing = await h2Request(session, server, "GET", `${CMS}/nope`);
      expect([missing.status, missing.json.kind, missing.json.reason]).toEqual([404, "Status", "NotFound"]);
      expectNoHopByHop(missing.headers);
      const anonymous = await h2Request(session, server, "GET", CMS, { token: null });
      expect([anonymous.status, anonymous.json.reason]).toEqual([401, "Unauthorized"]);
      const wrong = await h2Request(session, server, "GET", CMS, { token: `${server.token}x` });
      expect(wrong.status).toBe(401);
      // Every request above shared one connection.
      expect(server.openConnections).toBe(1);
    } finally {
      session.close();
    }
  });

  it("counts requests over HTTP/2 in the metrics as over HTTP/1.1", async () => {
    const server = await start({}, ["h2"]);
    const metrics = server.instruments?.metrics;
    const before = metrics?.count({ verb: "list", resource: "configmaps", code: 200 }) ?? 0;
    const session = await connectH2(server);
    try {
      await h2Request(session, server, "GET", CMS);
      await request(server, "GET", CMS);
      expect(metrics?.count({ verb: "list", resource: "configmaps", code: 200 })).toBe(before + 2);
      expect(metrics?.count({ verb: "get", resource: "configmaps", code: 404 })).toBe(0);
      await h2Request(session, server, "GET", `${CMS}/nope`);
      expect(metrics?.count({ verb: "get", resource: "configmaps", code: 404 })).toBe(1);
    } finally {
      session.close();
    }
  });

  it("decodes a protobuf body sent over HTTP/2", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      const body = Buffer.from(
        envelope("v1", "ConfigMap", fields(bfield(1, sfield(1, "pb")), entry(2, "k", "v"))),
      );
      const res = await h2Request(session, server, "POST", CMS, {
        body,
        headers: { "content-type": "application/vnd.kubernetes.protobuf" },
      });
      expect([res.status, res.json.metadata.name, res.json.data]).toEqual([201, "pb", { k: "v" }]);
    } finally {
      session.close();
    }
  });

  it("answers 413 with a Status over HTTP/2 and keeps the session usable", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      const huge = cm("big", { x: "a".repeat(3 * 1024 * 1024 + 10) });
      const res = await h2Request(session, server, "POST", CMS, { body: huge });
      expect([res.status, res.json.kind, res.json.reason]).toEqual([413, "Status", "RequestEntityTooLarge"]);
      // Without a declared length the limit is found while reading; the Status still arrives.
      const streamed = await new Promise<number>((resolve, reject) => {
        const stream = session.request({
          ":method": "POST",
          ":path": CMS,
          authorization: `Bearer ${server.token}`,
          "content-type": "application/json",
        });
        stream.on("response", (h) => resolve(Number(h[":status"])));
        stream.on("error", reject);
        for (let i = 0; i < 8; i++) stream.write(Buffer.alloc(512 * 1024, 0x61));
        stream.end();
      });
      expect(streamed).toBe(413);
      expect((await h2Request(session, server, "GET", `${CMS}/big`)).status).toBe(404);
      expect(server.openConnections).toBe(1);
    } finally {
      session.close();
    }
  });

  it("streams watch events on an HTTP/2 stream; a cancelled stream removes the server's watcher", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      const w = h2Watch(session, server, `${CMS}?watch=true`);
      const head = await w.head;
      expect(head.status).toBe(200);
      expect(head.headers["content-type"]).toBe("application/json");
      expectNoHopByHop(head.headers);
      await until(() => server.openWatches === 1);
      await h2Request(session, server, "POST", CMS, { body: cm("a") });
      await h2Request(session, server, "DELETE", `${CMS}/a`);
      await until(() => w.lines.length >= 2);
      expect(w.lines.map((l) => JSON.parse(l).type)).toEqual(["ADDED", "DELETED"]);
      w.cancel();
      await w.end;
      await until(() => server.openWatches === 0);
      expect(server.instruments?.metrics.snapshot().openWatches).toBe(0);
      // Only the stream went: the connection serves on.
      expect((await h2Request(session, server, "GET", CMS)).status).toBe(200);
      expect(server.openConnections).toBe(1);
    } finally {
      session.close();
    }
  });

  it("multiplexes many watches over one connection, each with its events, and frees them all", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      const n = 120;
      const watches = Array.from({ length: n }, () => h2Watch(session, server, `${CMS}?watch=true`));
      const heads = await Promise.all(watches.map((w) => w.head));
      expect(heads.every((h) => h.status === 200)).toBe(true);
      await until(() => server.openWatches === n);
      expect(server.openConnections).toBe(1);
      await h2Request(session, server, "POST", CMS, { body: cm("fan-out") });
      await until(() => watches.every((w) => w.lines.length === 1));
      expect(new Set(watches.map((w) => JSON.parse(w.lines[0] as string).object.metadata.name))).toEqual(
        new Set(["fan-out"]),
      );
      for (const w of watches) w.cancel();
      await until(() => server.openWatches === 0);
    } finally {
      session.close();
    }
  });

  it("cuts off a stream that does not read, and only that stream: the connection's other watch carries on", async () => {
    const server = await start({ maxWatchBufferedBytes: 64 * 1024, slowWatchGraceMs: 0 }, ["h2"]);
    // Go's windows: a stalled stream's 4 MiB cannot exhaust the connection's 1 GiB, so the others flow on.
    const session = await connectH2(server, true);
    try {
      const slow = session.request({ ":path": `${CMS}?watch=true`, authorization: `Bearer ${server.token}` });
      slow.end();
      slow.on("error", () => {});
      slow.pause(); // never read: its flow-control window closes, the server's stream buffer fills
      const slowClosed = new Promise<void>((resolve) => slow.once("close", () => resolve()));
      const fast = h2Watch(session, server, `${CMS}?watch=true`);
      await fast.head;
      await until(() => server.openWatches === 2);
      const big = "x".repeat(100 * 1024);
      let written = 0;
      for (; written < 100 && server.openWatches > 1; written++) {
        await h2Request(session, server, "POST", CMS, { body: cm(`big-${written}`, { big }) });
      }
      await until(() => server.openWatches === 1);
      expect(written).toBeLessThan(100);
      slow.resume(); // the reset stream reports its close once what it buffered is read
      await slowClosed;
      await until(() => fast.lines.length === written);
      expect(fast.ended).toBe(false);
      expect(server.openConnections).toBe(1);
    } finally {
      session.close();
    }
  });

  it("sends Warning headers over HTTP/2", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    try {
      const body = JSON.stringify({ metadata: { name: "warned" }, data: { a: "b" }, bogus: 1, other: 2 });
      const res = await h2Request(session, server, "POST", CMS, { body });
      expect(res.status).toBe(201);
      const warning = res.headers.warning;
      const text = Array.isArray(warning) ? warning.join(", ") : (warning ?? "");
      expect(text).toContain('299 - "unknown field \\"bogus\\""');
      expect(text).toContain('299 - "unknown field \\"other\\""');
    } finally {
      session.close();
    }
  });

  it("serves other requests on a connection while a large LIST is still on its way to it", async () => {
    const server = await start({}, ["h2"]);
    const configMaps = server.backend.findResource("", "v1", "configmaps");
    if (!configMaps) throw new Error("configmaps are served");
    const payload = "y".repeat(4000);
    for (let i = 0; i < 6000; i++) {
      server.backend.create(configMaps, "h2", { metadata: { name: `c${i}` }, data: { payload } });
    }
    const session = await connectH2(server, true);
    try {
      // A 25 MB LIST the client does not read yet: it waits in the server's session.
      const list = session.request({ ":path": CMS, authorization: `Bearer ${server.token}` });
      list.end();
      list.pause();
      await new Promise((resolve) => list.once("response", resolve));
      for (let i = 0; i < 3; i++)
        expect((await h2Request(session, server, "GET", "/api/v1/namespaces/h2")).status).toBe(200);
      let bytes = 0;
      list.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      list.resume();
      await new Promise((resolve) => list.once("end", resolve));
      expect(bytes).toBeGreaterThan(24_000_000);
    } finally {
      session.close();
    }
  });

  it("advertises kube-apiserver's stream limit per connection (250 unless configured)", async () => {
    const server = await start();
    const session = await connectH2(server);
    try {
      expect(session.remoteSettings.maxConcurrentStreams).toBe(250);
    } finally {
      session.close();
    }
    const custom = await start({ http2MaxStreamsPerConnection: 1000 });
    const other = await connectH2(custom);
    try {
      expect(other.remoteSettings.maxConcurrentStreams).toBe(1000);
    } finally {
      other.close();
    }
  });

  it("injected faults act on HTTP/2 streams: latency delays, dropped watches end cleanly", async () => {
    const server = await start({}, ["h2"]);
    const faults = server.instruments?.faults;
    if (!faults) throw new Error("instruments are on by default");
    const session = await connectH2(server);
    try {
      const w = h2Watch(session, server, `${CMS}?watch=true`);
      await w.head;
      await until(() => server.openWatches === 1);
      expect(faults.dropWatches()).toBe(1);
      await w.end;
      expect(w.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
      expect(server.openWatches).toBe(0);
      faults.latency(150, "list");
      const started = performance.now();
      expect((await h2Request(session, server, "GET", CMS)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      faults.clear();
      faults.failNext("get", 1, 503);
      const failed = await h2Request(session, server, "GET", `${CMS}/x`);
      expect([failed.status, failed.json.kind]).toEqual([503, "Status"]);
    } finally {
      session.close();
    }
  });

  it("stop() sends GOAWAY, ends the watches of every session and HTTP/1.1 socket, and leaves none open", async () => {
    const server = await start({}, ["h2"]);
    const session = await connectH2(server);
    const goaway = new Promise<number>((resolve) => session.once("goaway", (code) => resolve(code)));
    const closed = new Promise<void>((resolve) => session.once("close", () => resolve()));
    const w2 = h2Watch(session, server, `${CMS}?watch=true`);
    const w1 = openWatch(server, `${CMS}?watch=true`);
    await Promise.all([w2.head, w1.head]);
    await until(() => server.openWatches === 2);
    expect(server.openConnections).toBe(2);
    await server.stop();
    expect(await goaway).toBe(http2.constants.NGHTTP2_NO_ERROR);
    await Promise.all([w2.end, w1.end, closed]);
    expect(w2.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
    expect([server.openWatches, server.openConnections]).toEqual([0, 0]);
  });
});

const CURL = await run("curl", ["--version"]).then(
  (r) => (r.stdout.includes("HTTP2") ? "curl" : undefined),
  () => undefined,
);

describe.skipIf(!CURL)(
  `curl on both protocols${CURL ? "" : " (skipped: curl with HTTP/2 not found)"}`,
  () => {
    const start = serverPerTest();

    it("reads the 413 of a body it is still sending over HTTP/1.1 and over HTTP/2", async () => {
      const server = await start({}, ["h2"]);
      const dir = await mkdtemp(join(tmpdir(), "workbook-h2-"));
      try {
        const bodyFile = join(dir, "body.json");
        const caFile = join(dir, "ca.pem");
        await writeFile(bodyFile, Buffer.alloc(16 * 1024 * 1024, 0x61));
        await writeFile(caFile, server.caPem);
        const seen: string[] = [];
        for (const protocol of ["--http1.1", "--http2", "--http1.1", "--http2"]) {
          const args = [
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_version} %{http_code}",
            "--cacert",
            caFile,
            protocol,
          ];
          args.push("-H", `Authorization: Bearer ${server.token}`, "-H", "Content-Type: application/json");
          args.push("--data-binary", `@${bodyFile}`, `${server.url}${CMS}`);
          const out = await run(CURL as string, args).then(
            (r) => r.stdout,
            (err: { code?: number; stdout?: string }) => `${err.stdout ?? ""} (curl exit ${err.code})`,
          );
          seen.push(out);
        }
        expect(seen).toEqual(["1.1 413", "2 413", "1.1 413", "2 413"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);

describe.skipIf(!KUBECTL)(`kubectl over HTTP/2${KUBECTL ? "" : " (skipped: kubectl not found)"}`, () => {
  const start = serverPerTest();

  it("get and get -w negotiate h2 (Go's http2 transport) and stream a change", async () => {
    const server = await start({}, ["h2"]);
    // Go's HTTP/2 transport logs its frames with GODEBUG=http2debug=1: proof the requests went over h2.
    const env = { ...process.env, KUBECONFIG: server.kubeconfigPath, GODEBUG: "http2debug=1" };
    const dir = await mkdtemp(join(tmpdir(), "workbook-h2-kubectl-"));
    try {
      const cache = ["--cache-dir", join(dir, "cache")];
      const got = await run(KUBECTL as string, [...cache, "get", "namespace", "h2", "-o", "name"], { env });
      expect(got.stdout.trim()).toBe("namespace/h2");
      expect(got.stderr).toMatch(/http2: Transport received HEADERS/);
      const child = spawn(
        KUBECTL as string,
        [...cache, "get", "configmaps", "-n", "h2", "-w", "-o", "name", "--request-timeout=4s"],
        { env },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on("data", (c: Buffer) => {
        err += c.toString();
      });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      await until(() => server.openWatches === 1, 10_000);
      expect(server.openConnections).toBe(1);
      expect((await request(server, "POST", CMS, { body: cm("seen-by-kubectl") })).status).toBe(201);
      await until(() => out.includes("configmap/seen-by-kubectl"), 10_000);
      child.kill("SIGINT");
      await exited;
      expect(err).toMatch(/http2: Transport/);
      await until(() => server.openWatches === 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
