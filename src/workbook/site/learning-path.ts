/**
 * The learning path: every notebook in order, as a mermaid flowchart in rows of four (each row drawn left to
 * right, rows top to bottom), so thirteen notebooks still fit a page width with text at full size.
 */
import { mermaidLabel } from "../viz/mermaid-text.js";
import { stateClassDef } from "../viz/theme.js";
import type { NotebookInfo } from "./notebook-info.js";

/** Notebooks per row of the path. */
export const PATH_ROW = 4;

/** Mermaid source of the path through `notebooks` (already in order). */
export function learningPathDiagram(notebooks: readonly NotebookInfo[]): string {
  const lines = ["flowchart TB"];
  const rows: string[] = [];
  for (let start = 0; start < notebooks.length; start += PATH_ROW) {
    const row = `row${start / PATH_ROW}`;
    rows.push(row);
    const members = notebooks.slice(start, start + PATH_ROW);
    lines.push(`  subgraph ${row}[" "]`, "    direction LR");
    members.forEach((nb, i) => {
      const label = mermaidLabel(`${nb.title.replace(/ · /, "\n")}\n${nb.minutes} min`);
      lines.push(`    nb${start + i}[${label}]`);
    });
    if (members.length > 1) lines.push(`    ${members.map((_, i) => `nb${start + i}`).join(" --> ")}`);
    lines.push("  end");
  }
  if (rows.length > 1) lines.push(`  ${rows.join(" --> ")}`);
  if (notebooks.length > 0) lines.push(`  ${stateClassDef("focus")}`, "  class nb0 focus");
  return `${lines.join("\n")}\n`;
}
