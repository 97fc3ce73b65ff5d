/**
 * Reading answers line by line from any stream (a terminal, a pipe, a test's PassThrough). readline with
 * `terminal: false`, lines buffered as they arrive so none is lost between two prompts; end of input reads as
 * `null`, never as a hang.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/** Lines from a stream, one `next()` at a time. */
export class LineReader {
  private readonly lines: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private ended = false;
  private readonly rl;

  constructor(input: Readable) {
    this.rl = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    this.rl.on("line", (line) => {
      if (this.waiting) {
        const deliver = this.waiting;
        this.waiting = undefined;
        deliver(line);
      } else this.lines.push(line);
    });
    this.rl.on("close", () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = undefined;
    });
  }

  /** The next line, or `null` once the input has ended and every buffered line was read. */
  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Stops reading (the input stream is left open). */
  close(): void {
    this.rl.close();
  }
}
