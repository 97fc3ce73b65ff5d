/**
 * How every response leaves the server: JSON bodies and Kubernetes `Status` errors, with the status code and
 * byte count recorded for metrics. kube-apiserver writes every failure as a `metav1.Status` object with the
 * matching HTTP code (`responsewriters.ErrorNegotiated`); so does this.
 */

import type { StatusError } from "../../../apimachinery/errors.js";
import { responseError } from "../errors.js";
import { ListBody } from "../serializer/list-body.js";
import { storedJsonOf } from "../storage/stored-version.js";
import { type ApiResponse, isHttp2Response } from "./transport.js";

/** Bodies shorter than this (UTF-16 units, or bytes of a list) are written in one piece with the headers. */
const SMALL_BODY = 64 * 1024;

/** One response in progress: what was sent, for the request log and metrics. */
export class Reply {
  /** HTTP status code sent (0 until headers are written). */
  code = 0;
  /** Body bytes written so far. */
  bytes = 0;

  /** Warnings to send with the response, one `Warning: 299 - "<text>"` each (set before {@link Reply.json}). */
  private readonly warningTexts: string[] = [];

  constructor(readonly res: ApiResponse) {}

  /** Adds warnings (kube-apiserver's `warning.AddWarning`): the client shows them, the request still succeeds. */
  warn(...texts: readonly string[]): void {
    this.warningTexts.push(...texts);
  }

  /** True once headers went out: a second response is impossible (watch streams, aborted writes). */
  get started(): boolean {
    return this.res.headersSent;
  }

  /**
   * Sends a JSON body and ends the response. `body` may be pre-serialized: a string, or a {@link ListBody}
   * (a LIST assembled from stored items), whose chunks are written as they are filled.
   */
  json(code: number, body: unknown): void {
    const res = this.res;
    if (body instanceof ListBody) {
      if (!this.sendHead(code, body.byteLength)) return;
      // A small list goes out in one write with its headers; a large one chunk by chunk as each is filled.
      if (body.byteLength < SMALL_BODY) {
        res.end(body.toBuffer());
        return;
      }
      this.pump(body.chunks());
      return;
    }
    const text =
      typeof body === "string"
        ? body
        : ((typeof body === "object" && body !== null ? storedJsonOf(body) : undefined) ??
          JSON.stringify(body));
    // Small bodies go out as a string: node then sends headers and body in one write (one TLS record). Large
    // ones as one Buffer, which measured faster than handing node a 12 MB string.
    const payload = text.length < SMALL_BODY ? text : Buffer.from(text, "utf8");
    const length = typeof payload === "string" ? Buffer.byteLength(payload, "utf8") : payload.length;
    if (this.sendHead(code, length)) res.end(payload);
  }

  /**
   * Writes `chunks` then ends the response, filling the next chunk only once the socket has taken the last one
   * (`drain`). Written in one synchronous loop, every chunk of a 55 MB list was filled before the first byte left
   * (node corks the socket until the next tick): the client waited 250-430 ms for its first byte of a 100k LIST.
   * A response destroyed meanwhile (client gone) stops the pump; its chunks are never filled. A chunk that
   * cannot be filled destroys the response (its headers are gone, a Status can no longer be sent); it must not
   * throw from a `drain` callback, where nothing would catch it.
   */
  private pump(chunks: Iterator<Buffer>): void {
    const res = this.res;
    const next = (): void => {
      for (;;) {
        if (res.destroyed) return;
        let chunk: IteratorResult<Buffer>;
        try {
          chunk = chunks.next();
        } catch (err) {
          res.destroy(err as Error);
          return;
        }
        if (chunk.done) {
          res.end();
          return;
        }
        const more = isHttp2Response(res) ? res.write(chunk.value) : res.write(chunk.value);
        if (!more) {
          res.once("drain", next);
          return;
        }
      }
    };
    next();
  }

  /** Records the code and length and writes the headers; false when the response is already destroyed. */
  private sendHead(code: number, length: number): boolean {
    this.code = code;
    this.bytes += length;
    if (this.res.destroyed) return false;
    this.res.writeHead(code, {
      "Content-Type": "application/json",
      "Content-Length": length,
      "Cache-Control": "no-cache, private",
      ...(this.warningTexts.length > 0 ? { Warning: this.warningTexts.map(warningValue) } : {}),
    });
    return true;
  }

  /** Sends any error as a `Status` body with its code (unknown errors become 500 InternalError). */
  error(err: unknown): StatusError {
    const apiErr = responseError(err);
    if (!this.started) this.json(apiErr.code, apiErr.status);
    else this.res.destroy();
    return apiErr;
  }

  /**
   * Starts a streaming response (watch): headers now, body chunks via {@link Reply.write}. On HTTP/1.1 the body
   * is chunked; HTTP/2 frames it itself and forbids `Transfer-Encoding`, and its `writeHead` sends the HEADERS
   * frame at once.
   */
  startStream(code: number, contentType: string): void {
    this.code = code;
    const headers = { "Content-Type": contentType, "Cache-Control": "no-cache, private" };
    if (isHttp2Response(this.res)) {
      this.res.writeHead(code, headers);
    } else {
      this.res.writeHead(code, { ...headers, "Transfer-Encoding": "chunked" });
      this.res.flushHeaders();
    }
  }

  /**
   * Writes one chunk of a stream; returns false when the unsent bytes are over the high-water mark (the socket's
   * on HTTP/1.1, the stream's on HTTP/2).
   */
  write(chunk: string): boolean {
    this.bytes += Buffer.byteLength(chunk);
    return isHttp2Response(this.res) ? this.res.write(chunk) : this.res.write(chunk);
  }
}

/**
 * One `Warning` header value: code 299, agent "-", the text quoted (RFC 7234, as kube-apiserver writes it);
 * anything outside printable ASCII is escaped, as a header value must be.
 */
function warningValue(text: string): string {
  const quoted = JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `299 - ${quoted}`;
}
