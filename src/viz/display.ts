/**
 * Showing pictures from a notebook. Inside a tslab kernel, mermaid goes out as a `text/vnd.mermaid` display
 * (rendered by JupyterLab >= 4.1) and markdown as `text/markdown`; anywhere else (a plain `node` script, a test,
 * a terminal) the same content is printed as markdown, mermaid in a ```mermaid fence.
 *
 * tslab is detected lazily and never imported at module load: the package must load in plain Node, where tslab
 * is absent or not running a kernel.
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { mermaidFence } from "./mermaid-text.js";

/** The part of tslab's `display` the workbook uses. */
export interface RichDisplay {
  raw(contentType: string, data: string): unknown;
}

/** The MIME type JupyterLab >= 4.1 renders as a mermaid diagram. */
export const MERMAID_MIME = "text/vnd.mermaid";

let cached: RichDisplay | null | undefined;

/**
 * tslab's `display` when this process is a tslab kernel (`node .../tslab kernel ...`), loaded from that
 * same tslab so it is the instance wired to the running cell; `undefined` otherwise. Detected once.
 */
export function tslabDisplay(argv: readonly string[] = process.argv): RichDisplay | undefined {
  if (cached !== undefined && argv === process.argv) return cached ?? undefined;
  let found: RichDisplay | undefined;
  const script = argv[1];
  if (script && /tslab/.test(script) && argv.includes("kernel")) {
    try {
      const tslab = createRequire(realpathSync(script))("tslab") as { display?: RichDisplay };
      found = tslab.display;
    } catch {
      found = undefined;
    }
  }
  if (argv === process.argv) cached = found ?? null;
  return found;
}

/** Where {@link showMermaid} and {@link showMarkdown} send output. */
export interface ShowOptions {
  /** A rich display (default: {@link tslabDisplay}); `null` forces the plain-text fallback. */
  display?: RichDisplay | null;
  /** The plain-text sink (default: stdout). */
  write?: (text: string) => void;
  /**
   * `mermaid` (default) sends `text/vnd.mermaid`; `markdown` sends a markdown cell output with a fenced block,
   * for front ends that render mermaid only in markdown (VS Code). `WORKBOOK_MERMAID=markdown` sets it globally.
   */
  as?: "mermaid" | "markdown";
}

const stdoutWrite = (text: string) => {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
};

/** Sends `data` as `contentType` to the rich display, or `fallback` as text when there is none (or it refuses). */
function emit(options: ShowOptions, contentType: string, data: string, fallback: string): void {
  const display = options.display === null ? undefined : (options.display ?? tslabDisplay());
  if (display) {
    try {
      display.raw(contentType, data);
      return;
    } catch {
      // tslab refuses outside a cell execution ("Not ready"): fall through to text.
    }
  }
  (options.write ?? stdoutWrite)(fallback);
}

/** Shows markdown: a `text/markdown` display in a kernel, the raw text elsewhere. */
export function showMarkdown(markdown: string, options: ShowOptions = {}): void {
  emit(options, "text/markdown", markdown, markdown);
}

/** Shows a mermaid diagram: rendered in JupyterLab, as a ```mermaid fenced block anywhere else. */
export function showMermaid(source: string, options: ShowOptions = {}): void {
  const as = options.as ?? (process.env.WORKBOOK_MERMAID === "markdown" ? "markdown" : "mermaid");
  const fence = mermaidFence(source);
  if (as === "markdown") emit(options, "text/markdown", fence, fence);
  else emit(options, MERMAID_MIME, source, fence);
}
