/** Test helpers: start an EmbeddedApiServer and talk to it with raw node:https (no client library). */
import https from "node:https";
import { afterEach } from "vitest";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import {
  EmbeddedApiServer,
  type EmbeddedApiServerOptions,
} from "../../../src/control-plane/apiserver/server.js";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface RawRequest {
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Token to send; `null` sends none. Default: the server's token. */
  token?: string | null;
}

/** Per-test servers: returns a starter; every server it started is stopped after each test. */
export function serverPerTest(): typeof startServer {
  const started: EmbeddedApiServer[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.stop();
  });
  return async (opts, namespaces) => {
    const server = await startServer(opts, namespaces);
    started.push(server);
    return server;
  };
}

/** Starts a server over a fresh backend and creates `namespaces` in it. */
export async function startServer(
  opts: Partial<EmbeddedApiServerOptions> = {},
  namespaces: string[] = [],
): Promise<EmbeddedApiServer> {
  const server = new EmbeddedApiServer({
    backend: createBackend(opts.clock ? { clock: opts.clock } : {}),
    ...opts,
  });
  await server.start();
  for (const name of namespaces) {
    const res = await request(server, "POST", "/api/v1/namespaces", {
      body: JSON.stringify({ metadata: { name } }),
    });
    if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.text}`);
  }
  return server;
}

/** A response body parsed as JSON, or undefined when it is not JSON (a Status is; a plain-text error is not). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function request(
  server: EmbeddedApiServer,
  method: string,
  path: string,
  r: RawRequest = {},
): Promise<RawResponse> {
  const url = new URL(server.url);
  const headers: Record<string, string> = { ...r.headers };
  const token = r.token === undefined ? server.token : r.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (r.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: url.hostname, port: url.port, path, method, headers, ca: server.caPem, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: jsonOrUndefined(text) });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** Opens a watch and collects its lines; `close()` disconnects. */
export function openWatch(server: EmbeddedApiServer, path: string) {
  const url = new URL(server.url);
  const lines: string[] = [];
  let status = 0;
  let contentType: string | undefined;
  let ended = false;
  let req: ReturnType<typeof https.request> | undefined;
  let resolveHead: (() => void) | undefined;
  let resolveEnd: (() => void) | undefined;
  const head = new Promise<void>((r) => {
    resolveHead = r;
  });
  const end = new Promise<void>((r) => {
    resolveEnd = r;
  });
  req = https.request(
    {
      host: url.hostname,
      port: url.port,
      path,
      method: "GET",
      headers: { authorization: `Bearer ${server.token}` },
      ca: server.caPem,
      agent: false,
    },
    (res) => {
      status = res.statusCode ?? 0;
      contentType = res.headers["content-type"];
      resolveHead?.();
      let buf = "";
      res.on("data", (c: Buffer) => {
        buf += c.toString("utf8");
        let i = buf.indexOf("\n");
        while (i >= 0) {
          lines.push(buf.slice(0, i));
          buf = buf.slice(i + 1);
          i = buf.indexOf("\n");
        }
      });
      const done = () => {
        ended = true;
        resolveEnd?.();
      };
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    },
  );
  req.on("error", () => {
    ended = true;
    resolveHead?.();
    resolveEnd?.();
  });
  req.end();
  return {
    head,
    end,
    get status() {
      return status;
    },
    get contentType() {
      return contentType;
    },
    get ended() {
      return ended;
    },
    events(): any[] {
      return lines.map((l) => JSON.parse(l));
    },
    close() {
      req?.destroy();
    },
  };
}

/** Polls `cond` (real time) until true or the deadline passes. */
export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

export function cm(name: string, data: Record<string, string> = {}) {
  return JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });
}
