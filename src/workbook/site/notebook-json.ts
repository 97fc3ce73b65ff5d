/**
 * The parts of a Jupyter notebook file (nbformat 4) the site reads. Multi-line strings may be stored as one
 * string or as a list of lines; {@link text} joins either.
 */

/** Text as nbformat stores it: a string, or the lines of one. */
export type MultilineText = string | string[];

/** One output of a code cell. */
export interface NotebookOutput {
  output_type: "stream" | "display_data" | "execute_result" | "error" | "update_display_data";
  /** Streams: `stdout` or `stderr`. */
  name?: string;
  text?: MultilineText;
  /** Rich outputs: MIME type -> content. */
  data?: Record<string, MultilineText | object>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

/** One cell. */
export interface NotebookCell {
  cell_type: "markdown" | "code" | "raw";
  source: MultilineText;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
}

/** A whole notebook. */
export interface NotebookJson {
  metadata?: Record<string, unknown>;
  cells: NotebookCell[];
}

/** A stored multi-line text as one string. */
export function text(value: MultilineText | object | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.join("");
  return JSON.stringify(value, null, 2);
}
