import https from "node:https";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ListBody } from "../../../src/control-plane/apiserver/serializer/list-body.js";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { request, serverPerTest } from "./helpers.js";

/**
 * A LIST larger than one chunk (src/control-plane/apiserver/serializer/list-body.ts) is pumped to the socket chunk by chunk: the
 * next chunk is filled once the socket took the last one. Counted here by wrapping ListBody's chunk generator.
 */
const start = serverPerTest();
const original = ListBody.prototype.chunks;
let filled = 0;

beforeEach(() => {
  filled = 0;
  ListBody.prototype.chunks = function* (this: ListBody, chunkBytes?: number) {
    for (const chunk of original.call(this, chunkBytes)) {
      filled++;
      yield chunk;
    }
  };
});
afterEach(() => {
  ListBody.prototype.chunks = original;
});

/** A server holding 6,000 ConfigMaps of 4 KB: a LIST of about 25 MB, 25 chunks. */
async function bigList(): Promise<EmbeddedApiServer> {
  const server = await start({}, ["big"]);
  const configMaps = server.backend.findResource("", "v1", "configmaps");
  if (!configMaps) throw new Error("configmaps are served");
  const payload = "z".repeat(4000);
  for (let i = 0; i < 6000; i++)
    server.backend.create(configMaps, "big", { metadata: { name: `c${i}` }, data: { payload } });
  return server;
}

/** GETs the big list; `onFirstData` runs at the first body bytes, with the request to abort it. */
function getList(server: EmbeddedApiServer, onFirstData: (req: ReturnType<typeof https.request>) => void) {
  const url = new URL(server.url);
  return new Promise<{ bytes: number; length: number; aborted: boolean }>((resolve, reject) => {
    let bytes = 0;
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        path: "/api/v1/namespaces/big/configmaps",
        headers: { authorization: `Bearer ${server.token}` },
        ca: server.caPem,
        agent: false,
      },
      (res) => {
        const length = Number(res.headers["content-length"]);
        res.on("data", (c: Buffer) => {
          if (bytes === 0) onFirstData(req);
          bytes += c.length;
        });
        res.on("end", () => resolve({ bytes, length, aborted: false }));
        res.on("error", () => resolve({ bytes, length, aborted: true }));
        res.on("aborted", () => resolve({ bytes, length, aborted: true }));
      },
    );
    req.on("error", (err) => (bytes > 0 ? resolve({ bytes, length: 0, aborted: true }) : reject(err)));
    req.end();
  });
}

describe("a large LIST on HTTP/1.1", () => {
  it("sends its first bytes before the server has filled its last chunk, and arrives whole", async () => {
    const server = await bigList();
    let filledAtFirstByte = -1;
    const got = await getList(server, () => {
      filledAtFirstByte = filled;
    });
    expect(got.bytes).toBe(got.length);
    expect(got.bytes).toBeGreaterThan(24_000_000);
    expect(filled).toBeGreaterThanOrEqual(20);
    // Filled in one synchronous loop, all of them were ready before the socket sent anything.
    expect(filledAtFirstByte).toBeGreaterThan(0);
    expect(filledAtFirstByte).toBeLessThan(filled / 2);
  });

  it("stops filling chunks for a client that went away, and serves the next request", async () => {
    const server = await bigList();
    const got = await getList(server, (req) => req.destroy());
    expect(got.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(filled).toBeLessThan(20);
    expect((await request(server, "GET", "/api/v1/namespaces/big")).status).toBe(200);
  });
});
