import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One mermaid diagram found in a document: where it is and its source. */
export interface MermaidBlock {
  file: string;
  /** 1-based line of the opening fence (markdown) or the cell number (notebooks). */
  where: string;
  source: string;
}

const FENCE = /^(\s*)(```+|~~~+)\s*mermaid\s*$/;

/** Every ```mermaid fenced block of a markdown text. An unclosed fence is reported as a block that cannot parse. */
export function markdownMermaidBlocks(text: string, file: string, prefix = "line "): MermaidBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: MermaidBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) body.push(lines[j++]!);
    const closed = j < lines.length;
    blocks.push({
      file,
      where: `${prefix}${i + 1}`,
      source: closed ? body.join("\n") : "%% unclosed mermaid fence",
    });
    i = j;
  }
  return blocks;
}

/** Mermaid blocks of every markdown cell of a notebook (Jupyter renders those). */
export function notebookMermaidBlocks(json: string, file: string): MermaidBlock[] {
  const nb = JSON.parse(json) as { cells: Array<{ cell_type: string; source: string | string[] }> };
  return nb.cells.flatMap((cell, index) => {
    if (cell.cell_type !== "markdown") return [];
    const text = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    return markdownMermaidBlocks(text, file, `cell ${index + 1}, line `);
  });
}

const SKIP = new Set([
  "node_modules",
  "dist",
  ".venv",
  ".git",
  "fixtures",
  "bench-results",
  ".ipynb_checkpoints",
]);

/** Every .md and .ipynb file under `root`, skipping build output, dependencies and test fixtures. */
export function documentFiles(root: string, dir = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...documentFiles(root, path));
    else if (/\.(md|ipynb)$/.test(entry.name)) found.push(path);
  }
  return found.sort();
}

/** Every mermaid diagram of the repository's documents, with paths relative to `root`. */
export function repositoryMermaidBlocks(root: string): MermaidBlock[] {
  return documentFiles(root).flatMap((path) => {
    const text = readFileSync(path, "utf8");
    const file = relative(root, path);
    return path.endsWith(".ipynb") ? notebookMermaidBlocks(text, file) : markdownMermaidBlocks(text, file);
  });
}
