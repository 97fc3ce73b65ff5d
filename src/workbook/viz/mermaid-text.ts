/**
 * Text rules shared by every mermaid builder: node ids mermaid accepts, and labels that survive any text
 * (quotes, brackets, pipes, `<`, `>`) because they are quoted and entity-escaped.
 */

/** Words mermaid's flowchart grammar reads as keywords wherever they appear, so they cannot be node ids. */
const RESERVED_IDS = new Set([
  "end",
  "graph",
  "flowchart",
  "subgraph",
  "style",
  "class",
  "classdef",
  "click",
]);

/**
 * A mermaid node id made from arbitrary text: letters, digits and `_` only, never empty, never starting with a
 * digit, never a keyword (a node called `end` would close a subgraph that was never opened).
 */
export function mermaidId(text: string): string {
  const id = text.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(id) && !RESERVED_IDS.has(id.toLowerCase()) ? id : `n_${id}`;
}

/**
 * A quoted mermaid label: `"..."` with `"` written as `#quot;` and `<`/`>` as entities, so a label such as
 * `GET /api/v1/pods?watch=1` cannot break the diagram. Newlines become `<br/>` (mermaid's line break).
 */
export function mermaidLabel(text: string): string {
  const escaped = text
    .replace(/"/g, "#quot;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\r?\n/g, "<br/>");
  return `"${escaped}"`;
}

/** A markdown fenced ```mermaid block: what JupyterLab >= 4.1, GitHub and VS Code render from markdown. */
export function mermaidFence(source: string): string {
  return `\`\`\`mermaid\n${source.trimEnd()}\n\`\`\``;
}
