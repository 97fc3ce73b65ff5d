/** Test helpers: talk to an EmbeddedApiServer over HTTP/2 with node:http2 (no client library). */
import http2, { type ClientHttp2Session, type ClientHttp2Stream } from "node:http2";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { jsonOrUndefined, type RawRequest, type RawResponse } from "./helpers.js";

/**
 * Opens one HTTP/2 session (ALPN `h2`) and waits for the server's SETTINGS; the caller closes it. `goWindows`
 * gives it Go's transport's flow-control windows (4 MiB per stream, 1 GiB per connection) instead of node's 64 KiB.
 */
export async function connectH2(server: EmbeddedApiServer, goWindows = false): Promise<ClientHttp2Session> {
  const session = http2.connect(server.url, {
    ca: server.caPem,
    ...(goWindows ? { settings: { initialWindowSize: 4 << 20 } } : {}),
  });
  if (goWindows) session.on("connect", () => session.setLocalWindowSize(1 << 30));
  session.on("error", () => {}); // a test that expects a failure looks at the streams
  await new Promise<void>((resolve, reject) => {
    session.once("remoteSettings", () => resolve());
    session.once("error", reject);
  });
  return session;
}

function requestHeaders(server: EmbeddedApiServer, method: string, path: string, r: RawRequest) {
  const headers: http2.OutgoingHttpHeaders = { ":method": method, ":path": path, ...r.headers };
  const token = r.token === undefined ? server.token : r.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (r.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  return headers;
}

/** One request on `session`; resolves with the whole response (headers lower-case, as HTTP/2 sends them). */
export function h2Request(
  session: ClientHttp2Session,
  server: EmbeddedApiServer,
  method: string,
  path: string,
  r: RawRequest = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const stream = session.request(requestHeaders(server, method, path, r));
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      headers = h;
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const { ":status": status, ...rest } = headers;
      resolve({ status: Number(status ?? 0), headers: rest, text, json: jsonOrUndefined(text) });
    });
    stream.on("error", reject);
    if (r.body !== undefined) {
      // Written in pieces, as a client streaming a big body does; a server that answered early may reset us.
      stream.end(r.body, () => {});
    } else {
      stream.end();
    }
  });
}

/** A watch on one HTTP/2 stream: its status, headers and lines so far; `cancel()` resets the stream. */
export interface H2Watch {
  readonly lines: string[];
  readonly head: Promise<{ status: number; headers: http2.IncomingHttpHeaders }>;
  readonly end: Promise<void>;
  readonly ended: boolean;
  /** The stream's RST_STREAM code once closed (0: ended normally). */
  readonly rstCode: number | undefined;
  cancel(): void;
}

/** Opens a watch on `session` and collects its event lines. */
export function h2Watch(session: ClientHttp2Session, server: EmbeddedApiServer, path: string): H2Watch {
  const stream: ClientHttp2Stream = session.request(requestHeaders(server, "GET", path, {}));
  stream.end();
  const lines: string[] = [];
  let ended = false;
  let buf = "";
  const head = new Promise<{ status: number; headers: http2.IncomingHttpHeaders }>((resolve, reject) => {
    stream.once("response", (headers) => resolve({ status: Number(headers[":status"]), headers }));
    stream.once("error", reject);
  });
  head.catch(() => {});
  stream.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    let i = buf.indexOf("\n");
    while (i >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      i = buf.indexOf("\n");
    }
  });
  stream.on("error", () => {});
  const end = new Promise<void>((resolve) =>
    stream.once("close", () => {
      ended = true;
      resolve();
    }),
  );
  return {
    lines,
    head,
    end,
    get ended() {
      return ended;
    },
    get rstCode() {
      return stream.closed ? stream.rstCode : undefined;
    },
    cancel: () => stream.close(http2.constants.NGHTTP2_CANCEL),
  };
}
