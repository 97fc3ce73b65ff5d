/**
 * The embedded API server's listener: one TLS port whose ALPN offers `h2` and `http/1.1`, as kube-apiserver's Go
 * `net/http` server does (`k8s.io/apiserver/pkg/server/secure_serving.go` configures HTTP/2 on the TLS listener and
 * keeps HTTP/1.1 for clients that do not offer `h2`). client-go and kubectl negotiate `h2` and multiplex every
 * request and watch over one connection; client-node (HTTP/1.1 only) gets a connection per concurrent request.
 *
 * Both protocols reach one request listener through Node's HTTP/2 compatibility API, so the handler sees
 * {@link ApiRequest} and {@link ApiResponse}, which are the HTTP/1.1 or the HTTP/2 objects. What differs between
 * the two is kept here: hop-by-hop headers, which HTTP/2 forbids (RFC 9113 section 8.2.2), aborting one request
 * (a socket on HTTP/1.1, a stream on HTTP/2), and a graceful stop (GOAWAY on every HTTP/2 session).
 *
 * Lifecycle: {@link ApiTransport.listen} once, {@link ApiTransport.close} (idempotent) ends every session and
 * socket; nothing keeps running after it resolves.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  constants,
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from "node:http2";
import type { AddressInfo, Socket } from "node:net";

/** A request as the handler sees it: HTTP/1.1 (`IncomingMessage`) or HTTP/2 (the compatibility request). */
export type ApiRequest = IncomingMessage | Http2ServerRequest;
/** A response as the handler writes it: HTTP/1.1 (`ServerResponse`) or HTTP/2 (the compatibility response). */
export type ApiResponse = ServerResponse | Http2ServerResponse;

/**
 * Go's `http2.Server` default `MaxConcurrentStreams`, which kube-apiserver advertises when
 * `--http2-max-streams-per-connection` is 0 (its default): a client that needs more concurrent streams opens
 * another connection (client-go does).
 */
export const DEFAULT_MAX_STREAMS_PER_CONNECTION = 250;

/** How long an idle HTTP/1.1 keep-alive connection stays open (Node's `keepAliveTimeout`). */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;
/**
 * How long {@link ApiTransport.close} lets HTTP/2 sessions finish after GOAWAY (the streams still running end, the
 * GOAWAY frame reaches the client) before every socket left is destroyed.
 */
const GOAWAY_GRACE_MS = 250;
/**
 * Per-session memory credit (MiB) before new streams are refused (RST_STREAM ENHANCE_YOUR_CALM). Node's default
 * (10) counts the response bytes queued to a client, so while a 25 MB LIST was still on its way every other
 * request on the connection failed; kube-apiserver refuses nothing for that. Watches stay bounded by the
 * slow-client rule (watch-stream.ts).
 */
const MAX_SESSION_MEMORY_MB = 1024;

/** True when the request came over HTTP/2. */
export function isHttp2(req: ApiRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/** True when the response goes over HTTP/2 (no hop-by-hop headers allowed). */
export function isHttp2Response(res: ApiResponse): res is Http2ServerResponse {
  return "stream" in res;
}

/**
 * Aborts one request: on HTTP/1.1 its connection is closed (the only way to stop a body), on HTTP/2 only its
 * stream is reset (RST_STREAM CANCEL), so the other requests and watches of the connection carry on.
 */
export function abortRequest(req: ApiRequest): void {
  if (isHttp2(req)) {
    if (!req.stream.destroyed) req.stream.close(constants.NGHTTP2_CANCEL);
  } else {
    req.socket.destroy();
  }
}

/** Options of {@link ApiTransport}. */
export interface ApiTransportOptions {
  certPem: string;
  keyPem: string;
  /** Streams one HTTP/2 connection may have open at once (default {@link DEFAULT_MAX_STREAMS_PER_CONNECTION}). */
  maxStreamsPerConnection?: number;
}

/** The TLS listener of one API server, serving HTTP/2 and HTTP/1.1 on one port. */
export class ApiTransport {
  private readonly server: Http2SecureServer;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<Http2Session>();
  private closing: Promise<void> | undefined;

  constructor(options: ApiTransportOptions) {
    const server = createSecureServer({
      cert: options.certPem,
      key: options.keyPem,
      allowHTTP1: true,
      // Watch events are small writes that must leave at once, not wait for Nagle's algorithm.
      noDelay: true,
      maxSessionMemory: MAX_SESSION_MEMORY_MB,
      settings: {
        maxConcurrentStreams: options.maxStreamsPerConnection ?? DEFAULT_MAX_STREAMS_PER_CONNECTION,
      },
    });
    // Read by Node's HTTP/1.1 connection handling, which the HTTP/2 server delegates to.
    Object.assign(server, { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS });
    this.server = server;
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    server.on("session", (session: Http2Session) => {
      this.sessions.add(session);
      session.on("close", () => this.sessions.delete(session));
      // A peer's protocol error ends its session; it must never reach the process as an unhandled 'error'.
      session.on("error", () => session.destroy());
    });
    server.on("tlsClientError", (_err, socket) => socket.destroy());
    // Malformed HTTP/1.1 (not a request the handler ever sees): answer 400 and close, as Go's net/http does.
    server.on("clientError", (_err: Error, socket: Socket) => {
      if (socket.writable && !socket.writableEnded) {
        socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      } else {
        socket.destroy();
      }
    });
  }

  /** Open TCP connections (both protocols). */
  get connections(): number {
    return this.sockets.size;
  }

  /** Open HTTP/2 sessions (one per connection that negotiated `h2`). */
  get http2Sessions(): number {
    return this.sessions.size;
  }

  /** Routes every request, of either protocol, to `handler`. */
  serve(handler: (req: ApiRequest, res: ApiResponse) => void): void {
    this.server.on("request", handler);
  }

  /** Listens on `host:port` (port 0: a free one); resolves with the bound address. */
  listen(port: number, host: string): Promise<AddressInfo> {
    const server = this.server;
    return new Promise<AddressInfo>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve(server.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops listening, sends GOAWAY on every HTTP/2 session (clients see a graceful end, not a reset), gives the
   * sessions {@link GOAWAY_GRACE_MS} to finish, then destroys every socket left. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    const server = this.server;
    const stopped = server.listening
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    const sessionsClosed = [...this.sessions].map(
      (session) => new Promise<void>((resolve) => session.close(() => resolve())),
    );
    if (sessionsClosed.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, GOAWAY_GRACE_MS);
      });
      await Promise.race([Promise.all(sessionsClosed), grace]);
      clearTimeout(timer);
    }
    for (const session of this.sessions) session.destroy();
    for (const socket of this.sockets) socket.destroy();
    await stopped;
  }
}
