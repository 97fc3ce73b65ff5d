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

/** The part of the tslab module the workbook uses: the cell display and fresh in-place displays. */
interface TslabModule {
  display: RichDisplay;
  newDisplay(): RichDisplay;
}

let cached: TslabModule | null | undefined;

/**
 * The tslab module when this process is a tslab kernel (`node .../tslab kernel ...`), loaded from that same
 * tslab so it is the instance wired to the running cell; `undefined` otherwise.
 */
function tslabModule(argv: readonly string[]): TslabModule | undefined {
  const script = argv[1];
  if (!script || !/tslab/.test(script) || !argv.includes("kernel")) return undefined;
  try {
    const tslab = createRequire(realpathSync(script))("tslab") as Partial<TslabModule>;
    return tslab.display && tslab.newDisplay ? (tslab as TslabModule) : undefined;
  } catch {
    return undefined;
  }
}

function currentTslab(argv: readonly string[] = process.argv): TslabModule | undefined {
  if (argv !== process.argv) return tslabModule(argv);
  if (cached === undefined) cached = tslabModule(argv) ?? null;
  return cached ?? undefined;
}

/** tslab's `display` in a tslab kernel, `undefined` anywhere else. Detected once, lazily. */
export function tslabDisplay(argv: readonly string[] = process.argv): RichDisplay | undefined {
  return currentTslab(argv)?.display;
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

/** A display area that each update overwrites: a live view (queue depth, cache contents) refreshed in place. */
export interface LiveDisplay {
  mermaid(source: string): void;
  markdown(text: string): void;
}

/**
 * A {@link LiveDisplay}: in a tslab kernel one output area (tslab's `newDisplay`, Jupyter's
 * `update_display_data`) that every call replaces; elsewhere every update is printed, like {@link showMermaid}.
 * `options.display` supplies the area (tests); `null` forces printing.
 */
export function liveDisplay(options: ShowOptions = {}): LiveDisplay {
  const area = options.display === null ? null : (options.display ?? currentTslab()?.newDisplay() ?? null);
  const target: ShowOptions = { ...options, display: area };
  return {
    mermaid: (source) => showMermaid(source, target),
    markdown: (text) => showMarkdown(text, target),
  };
}
