/**
 * The embedded API server's request pipeline, in kube-apiserver's filter order: authenticate (401), parse
 * the request info, apply injected faults, then serve a non-resource document or a resource request. Every
 * failure, expected or not, becomes a `Status` response: nothing a client sends can crash the server.
 */
import { performance } from "node:perf_hooks";
import type { Clock } from "../../../clock/clock.js";
import { responseError } from "../errors.js";
import type { Instruments } from "../instruments/instruments.js";
import type { ApiBackend, ResourceType, WatchEvent, WatchHandle } from "../types.js";
import { authenticate } from "./auth.js";
import { crdSchemasOf } from "./crd-schemas.js";
import { DiscoveryDocuments } from "./discovery.js";
import { nonResourceLabel, serveNonResource } from "./non-resource.js";
import { OpenApiDocuments } from "./openapi.js";
import { boolParam, watchOptionsFrom } from "./query.js";
import { Reply } from "./reply.js";
import { parseRequestInfo, type RequestInfo } from "./request-info.js";
import { serveResourceRequest } from "./resource-handler.js";
import { type ApiRequest, type ApiResponse, abortRequest, isHttp2 } from "./transport.js";
import { defaultWatchTimeoutMs, WatchStream } from "./watch-stream.js";

/** Options of {@link ApiHandler}. */
export interface ApiHandlerOptions {
  backend: ApiBackend;
  /** The bearer token every request must carry. */
  token: string;
  clock: Clock;
  /** `host:port` advertised in `/api` (`serverAddressByClientCIDRs`). */
  serverAddress: string;
  instruments?: Instruments;
  /** Slow-client limit of a watch's unsent bytes (default 16 MiB; see WatchStream). */
  maxWatchBufferedBytes?: number;
  /** How long a watch may stay over that limit (default 10 s on the server clock). */
  slowWatchGraceMs?: number;
  /** Random source for the default watch timeout (default Math.random). */
  random?: () => number;
  /** Called with every finished request and the server-side time it took (ms). */
  onRequest?: (info: RequestInfo | undefined, code: number, ms: number) => void;
}

const DEFAULT_MAX_WATCH_BUFFER = 16 * 1024 * 1024;
const DEFAULT_SLOW_WATCH_GRACE_MS = 10_000;
/** How long the rest of a too-large body is read and discarded before the connection is closed. */
const TOO_LARGE_DRAIN_MS = 10_000;
/** setTimeout's maximum delay (2^31 - 1 ms); larger values fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the pipeline learned about a request so far. */
interface RequestState {
  info: RequestInfo | undefined;
  /** True once a watch stream started (the request is then counted by the watch, not at its end). */
  streaming: boolean;
}

/** Metric labels of a request. */
function labels(info: RequestInfo | undefined, method: string): { verb: string; resource: string } {
  if (!info) return { verb: method.toLowerCase(), resource: "unknown" };
  if (info.kind === "nonresource") return { verb: "get", resource: nonResourceLabel(info.path) };
  return {
    verb: info.verb,
    resource: info.subresource ? `${info.resource}/${info.subresource}` : info.resource,
  };
}

/** Handles every HTTP request of one embedded API server. */
export class ApiHandler {
  private discovery: DiscoveryDocuments;
  private openapi: OpenApiDocuments;
  private readonly watches = new Set<WatchStream>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(private readonly opts: ApiHandlerOptions) {
    this.discovery = new DiscoveryDocuments(opts.backend.resourceTypes(), opts.serverAddress);
    this.openapi = new OpenApiDocuments(this.discovery, crdSchemasOf(opts.backend));
    this.unsubscribe = opts.backend.onResourcesChanged(() => this.refreshDiscovery());
  }

  /** Rebuilds discovery and OpenAPI from the backend's current resource set (a CRD appeared or went). */
  refreshDiscovery(): void {
    this.discovery = new DiscoveryDocuments(this.opts.backend.resourceTypes(), this.opts.serverAddress);
    this.openapi = new OpenApiDocuments(this.discovery, crdSchemasOf(this.opts.backend));
  }

  /** Number of open watch streams. */
  get openWatches(): number {
    return this.watches.size;
  }

  /** Closes every open watch (fault `dropWatches`, or server stop); returns how many were open. */
  closeAllWatches(why: "dropped" | "server-stop" = "dropped"): number {
    const all = [...this.watches];
    for (const w of all) w.finish(why);
    return all.length;
  }

  /** Stops serving: closes watches, unsubscribes from the backend. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe();
    this.closeAllWatches("server-stop");
  }

  /** The `request` listener of the HTTPS server. Never throws, never rejects. */
  handle = (req: ApiRequest, res: ApiResponse): void => {
    const reply = new Reply(res);
    const started = performance.now();
    const state: RequestState = { info: undefined, streaming: false };
    let recorded = false;
    const record = () => {
      // A watch is counted when its stream starts; its bytes when it closes (see serveWatch).
      if (recorded || state.streaming) return;
      recorded = true;
      const ms = performance.now() - started;
      const m = this.opts.instruments?.metrics;
      if (m) {
        const { verb, resource } = labels(state.info, req.method ?? "GET");
        m.recordRequest(verb, resource, reply.code || 499, ms);
        m.addBytes(reply.bytes, verb, resource);
      }
      this.opts.onRequest?.(state.info, reply.code, ms);
    };
    res.on("finish", record);
    res.on("close", record);
    this.serve(req, reply, state).catch((err: unknown) => {
      try {
        const apiErr = responseError(err);
        if (apiErr.code === 413) this.drainAfterTooLarge(req);
        reply.error(apiErr);
      } catch {
        res.destroy();
      }
    });
  };

  /**
   * After a 413 the rest of the body is still read and discarded, so the client, still sending, reads its 413
   * and can reuse the connection, instead of meeting a reset connection, as it does from
   * kube-apiserver, which reads on and half-closes. A body that keeps coming past
   * {@link TOO_LARGE_DRAIN_MS} is aborted: its connection closed on HTTP/1.1, its stream reset on HTTP/2.
   */
  private drainAfterTooLarge(req: ApiRequest): void {
    if (req.complete) return;
    req.on("data", () => {});
    req.resume();
    const timer = this.opts.clock.setTimer(TOO_LARGE_DRAIN_MS, () => {
      if (!req.complete) abortRequest(req);
    });
    req.once("end", () => timer.stop());
    req.once("close", () => timer.stop());
  }

  private async serve(req: ApiRequest, reply: Reply, state: RequestState): Promise<void> {
    // HTTP/1.1 clients are told to reconnect elsewhere; HTTP/2 sessions get a GOAWAY from the transport.
    if (this.stopped && !isHttp2(req)) reply.res.setHeader("Connection", "close");
    authenticate(req, this.opts.token);
    // The raw path, not `new URL().pathname`: URL normalization would resolve `%2e%2e` segments.
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : "");
    const path = q >= 0 ? raw.slice(0, q) : raw;
    const info = parseRequestInfo(req.method ?? "GET", path, boolParam(query, "watch") === true);
    state.info = info;
    if (info.kind === "nonresource") {
      serveNonResource(info.path, query, reply, this.discovery, this.openapi, req.headers.accept ?? "");
      return;
    }
    const { verb, resource } = labels(info, req.method ?? "GET");
    await this.opts.instruments?.faults.before(verb, resource);
    await serveResourceRequest({
      req,
      reply,
      query,
      info,
      backend: this.opts.backend,
      serveWatch: (rt, timeoutSeconds, asTable) =>
        this.serveWatch(reply, state, query, rt, info.namespace, timeoutSeconds, asTable),
    });
  }

  private serveWatch(
    reply: Reply,
    state: RequestState,
    query: URLSearchParams,
    rt: ResourceType,
    namespace: string | undefined,
    timeoutSeconds: number | undefined,
    asTable = false,
  ): void {
    const watchOpts = watchOptionsFrom(query);
    const render = asTable
      ? tableRenderer(this.opts.backend, rt, query.get("includeObject") || undefined)
      : undefined;
    const instruments = this.opts.instruments;
    // Capped at the longest delay a Node timer supports (~24.8 days); longer ones would fire at once.
    const timeoutMs = Math.min(
      MAX_TIMER_MS,
      timeoutSeconds !== undefined && timeoutSeconds > 0
        ? timeoutSeconds * 1000
        : defaultWatchTimeoutMs(this.opts.random),
    );
    const maxEvents = instruments?.faults.watchEventLimit();
    // A watch's bytes are counted as they are written (not only when it closes), so the counters show an open
    // watch's cost while it streams.
    let bytesCounted = 0;
    const countBytes = () => {
      const fresh = reply.bytes - bytesCounted;
      bytesCounted = reply.bytes;
      if (fresh > 0) instruments?.metrics.addBytes(fresh, "watch", rt.resource);
    };
    const stream = new WatchStream(reply, {
      clock: this.opts.clock,
      timeoutMs,
      maxBufferedBytes: this.opts.maxWatchBufferedBytes ?? DEFAULT_MAX_WATCH_BUFFER,
      slowClientGraceMs: this.opts.slowWatchGraceMs ?? DEFAULT_SLOW_WATCH_GRACE_MS,
      ...(maxEvents !== undefined ? { maxEvents } : {}),
      ...(render ? { render } : {}),
      onStart: () => {
        state.streaming = true;
        this.watches.add(stream);
        instruments?.metrics.watchOpened();
        instruments?.metrics.recordRequest("watch", rt.resource, 200);
      },
      onEvent: instruments ? () => instruments.metrics.watchEventSent() : undefined,
      onWrite: instruments ? countBytes : undefined,
      onClose: () => {
        if (!this.watches.delete(stream)) return;
        instruments?.metrics.watchClosed();
        countBytes();
      },
    });
    let handle: WatchHandle;
    try {
      // A CRD with a conversion webhook: each event's object is converted on its way to the stream.
      const conversion = this.opts.backend.conversionWebhook?.(rt);
      const sink = conversion ? conversion.watchSink(`${rt.group}/${rt.version}`, stream) : stream;
      handle = this.opts.backend.watch(rt, namespace, watchOpts, sink);
    } catch (err) {
      // Before the first event the failure is still an ordinary HTTP error response.
      if (!reply.started) {
        stream.finish("backend");
        throw err;
      }
      // Headers are out: report it in-stream as an ERROR event, as kube-apiserver does.
      reply.write(`${JSON.stringify({ type: "ERROR", object: responseError(err).status })}\n`);
      stream.finish("backend");
      return;
    }
    stream.attach(handle);
    if (this.stopped) stream.finish("server-stop");
  }
}

/**
 * Watch events for a client that asked `as=Table` (kubectl get -w): each ADDED/MODIFIED/DELETED object becomes
 * a one-row Table, as kube-apiserver converts them; BOOKMARK and ERROR events pass through unchanged.
 */
function tableRenderer(
  backend: ApiBackend,
  rt: ResourceType,
  includeObject: string | undefined,
): ((ev: WatchEvent) => string | undefined) | undefined {
  const tableOf = backend.tableOf?.bind(backend);
  if (!tableOf) return undefined;
  return (ev) => {
    if (ev.type === "BOOKMARK" || ev.type === "ERROR") return undefined;
    try {
      return `${JSON.stringify({ type: ev.type, object: tableOf(rt, ev.object, includeObject) })}\n`;
    } catch {
      return undefined; // an unusable includeObject: the plain event rather than a broken stream
    }
  };
}
