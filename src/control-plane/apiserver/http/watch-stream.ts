/**
 * One watch response: an HTTP 200 whose chunked body carries one JSON watch event per line
 * (`{"type":"ADDED","object":{...}}\n`), the framing of kube-apiserver's watch handler
 * (`k8s.io/apiserver/pkg/endpoints/handlers/watch.go`). The line is the backend's memoized `ev.line()`, so an
 * event is serialized once however many watchers receive it.
 *
 * The stream ends when:
 * - its timeout fires (`timeoutSeconds`, or 1800 s x U[1,2) like kube-apiserver's `minRequestTimeout`),
 *   measured on the server's Clock;
 * - the backend closes it (after an ERROR event such as 410 Expired);
 * - the client disconnects;
 * - the client is too slow: more than `maxBufferedBytes` stay unsent for longer than a grace period (or
 *   four times that are unsent at all). Like the watch cache terminating an unresponsive watcher, the server
 *   closes it instead of buffering without bound; the client re-watches from its last resourceVersion;
 * - a fault (`dropWatches`, `dropWatchesEvery`) or server stop closes it.
 *
 * Invariant: `close()` runs its cleanup exactly once, whichever of these happens first.
 */
import type { Clock, Timer } from "../../../clock/clock.js";
import type { WatchEvent, WatchHandle, WatchSink } from "../types.js";
import type { Reply } from "./reply.js";

/** Options of one {@link WatchStream}. */
export interface WatchStreamOptions {
  clock: Clock;
  /** When the server ends the stream, in ms from now. */
  timeoutMs: number;
  /**
   * Slow-client limit: a stream whose unsent bytes stay above this for longer than `slowClientGraceMs`
   * is closed; above four times this it is closed at once (the hard memory bound per watcher).
   */
  maxBufferedBytes: number;
  /** How long (server clock) a stream may stay over `maxBufferedBytes`, e.g. while it drains a burst. */
  slowClientGraceMs: number;
  /** Close after this many events (fault injection); undefined for no limit. */
  maxEvents?: number;
  /** A per-watcher rendering of an event (Table watches); undefined: the event's shared line. */
  render?: (ev: WatchEvent) => string | undefined;
  /** Called once when the response starts (status 200 and headers sent). */
  onStart?: () => void;
  /** Called for every event written. */
  onEvent?: () => void;
  /** Called after each chunk went to the response (metrics read the reply's byte count then). */
  onWrite?: () => void;
  /** Called once when the stream has closed. */
  onClose?: (why: WatchCloseReason) => void;
}

/** Why a watch stream ended. */
export type WatchCloseReason = "timeout" | "backend" | "client" | "slow-client" | "dropped" | "server-stop";

/** Unsent bytes above this multiple of the soft limit close a stream without grace. */
const HARD_LIMIT_FACTOR = 4;

/** kube-apiserver's default `--min-request-timeout`: 1800 s. */
export const MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/** The server-chosen watch duration when the client sent no `timeoutSeconds`: 1800 s x U[1,2), in ms. */
export function defaultWatchTimeoutMs(random: () => number = Math.random): number {
  return MIN_REQUEST_TIMEOUT_SECONDS * (1 + random()) * 1000;
}

/** A watch response in progress; the backend writes into it through the {@link WatchSink} interface. */
export class WatchStream implements WatchSink {
  private handle: WatchHandle | undefined;
  private timer: Timer | undefined;
  private closed = false;
  private sent = 0;
  /** Event lines waiting for this tick's flush. */
  private readonly pending: string[] = [];
  /** Server-clock time the unsent bytes first went over the soft limit (undefined when under it). */
  private overSince: number | undefined;
  /** Why it closed (undefined while open). */
  reason: WatchCloseReason | undefined;

  constructor(
    private readonly reply: Reply,
    private readonly opts: WatchStreamOptions,
  ) {
    this.timer = opts.clock.setTimer(opts.timeoutMs, () => this.finish("timeout"));
    reply.res.on("close", () => this.finish("client"));
  }

  /** Connects the backend watch, so closing the stream stops it. Call once, after `backend.watch` returned. */
  attach(handle: WatchHandle): void {
    this.handle = handle;
    if (this.closed) handle.stop();
    else this.begin();
  }

  /**
   * Sends the 200 and headers. Deferred until the backend accepted the watch (or sent its first event), so a
   * watch the backend refuses up front (bad selector, resourceVersion too large) gets a plain error response.
   */
  private begin(): void {
    if (this.reply.started) return;
    this.reply.startStream(200, "application/json");
    this.opts.onStart?.();
  }

  /** Number of events written so far. */
  get eventsSent(): number {
    return this.sent;
  }

  /** True until the stream has ended. */
  get open(): boolean {
    return !this.closed;
  }

  /** WatchSink.event: queues the event's shared line for this tick's flush (no per-watcher serialization). */
  event(ev: WatchEvent): void {
    if (this.closed) return;
    this.begin();
    this.pending.push(this.opts.render?.(ev) ?? ev.line());
    this.sent++;
    this.opts.onEvent?.();
    if (this.pending.length === 1) process.nextTick(() => this.flush());
    if (this.opts.maxEvents !== undefined && this.sent >= this.opts.maxEvents) this.finish("dropped");
  }

  /**
   * Writes the lines queued in this tick as one chunk: a burst of events (one transaction, or many writes in
   * one tick) costs one HTTP chunk and one TLS record per watcher instead of one per event. Then checks
   * backpressure: a client whose unsent bytes exceed the limit is cut off. The backlog is measured before this
   * chunk is queued: what the client has not taken of earlier writes. Just after a write, HTTP/2 still holds
   * the whole chunk (it leaves as the stream's flow-control window allows) where HTTP/1.1 has mostly handed it
   * to the kernel, so counting it would judge the same client differently on the two protocols.
   */
  private flush(): void {
    if (this.pending.length === 0 || this.reply.res.destroyed) {
      this.pending.length = 0;
      return;
    }
    const chunk = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join("");
    this.pending.length = 0;
    const backlog = this.reply.res.writableLength;
    this.reply.write(chunk);
    this.opts.onWrite?.();
    if (!this.closed && this.tooSlow(backlog)) this.finish("slow-client");
  }

  /**
   * The slow-client rule, checked at every flush. A burst (the initial events of a big watch, a
   * deletecollection) may push the buffer over the soft limit for a while; a client that is still over it
   * after the grace period is not keeping up, and one over the hard limit costs too much memory to wait for.
   */
  private tooSlow(unsent: number): boolean {
    const soft = this.opts.maxBufferedBytes;
    if (unsent <= soft) {
      this.overSince = undefined;
      return false;
    }
    if (unsent > HARD_LIMIT_FACTOR * soft) return true;
    const now = this.opts.clock.now();
    this.overSince ??= now;
    return now - this.overSince >= this.opts.slowClientGraceMs;
  }

  /** WatchSink.close: the backend ended the watch (after an ERROR event, for instance). */
  close(): void {
    this.finish("backend");
  }

  /** Ends the stream for `why`; idempotent. */
  finish(why: WatchCloseReason): void {
    if (this.closed) return;
    // Like the watch cache, tell the client how far it got just before the deadline ends the stream (only
    // watches that allow bookmarks get one). Sent while the stream is still open, flushed below.
    if (why === "timeout") this.handle?.bookmark?.();
    this.closed = true;
    this.reason = why;
    this.timer?.stop();
    this.handle?.stop();
    const res = this.reply.res;
    // A slow client's buffer is abandoned, not flushed: destroying is what bounds the memory.
    if (why === "slow-client" || why === "client") {
      this.pending.length = 0;
      res.destroy();
    } else if (this.reply.started && !res.writableEnded) {
      this.flush();
      res.end();
    }
    this.opts.onClose?.(why);
  }
}
