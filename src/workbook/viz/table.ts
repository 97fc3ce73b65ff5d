/** A cell of {@link markdownTable}: text or a number. */
export type TableCell = string | number | boolean | null | undefined;

function cellText(cell: TableCell): string {
  if (cell === null || cell === undefined) return "";
  return String(cell).replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/**
 * A markdown table (GitHub style), for `display.markdown` in a notebook or a plain print in a terminal. Pipes
 * in cells are escaped; every row must have as many cells as there are headers.
 */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly TableCell[]>): string {
  if (headers.length === 0) throw new Error("markdownTable: needs at least one column");
  const line = (cells: readonly TableCell[]) => `| ${cells.map(cellText).join(" | ")} |`;
  const out = [line(headers), `|${headers.map(() => "---").join("|")}|`];
  for (const [i, row] of rows.entries()) {
    if (row.length !== headers.length) {
      throw new Error(`markdownTable: row ${i} has ${row.length} cells for ${headers.length} columns`);
    }
    out.push(line(row));
  }
  return `${out.join("\n")}\n`;
}
