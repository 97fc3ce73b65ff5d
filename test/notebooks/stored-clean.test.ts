import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { listNotebooks } from "../../src/tools/cli/notebooks.js";
import { paths } from "./notebook-support.js";

interface Notebook {
  nbformat: number;
  metadata: { kernelspec?: { name?: string } };
  cells: Array<{
    cell_type: string;
    outputs?: unknown[];
    execution_count?: number | null;
    source: string | string[];
  }>;
}

const notebooks = listNotebooks(paths.notebooks);

describe("notebooks are stored clean", () => {
  it("there is at least notebooks/00-cluster.ipynb", () => {
    expect(notebooks.map((n) => basename(n))).toContain("00-cluster.ipynb");
  });

  it.each(notebooks.map((n) => [basename(n), n]))(
    "%s: no outputs, tslab kernel, NN-topic name, teaches",
    (_name, file) => {
      const nb = JSON.parse(readFileSync(file, "utf8")) as Notebook;
      expect(basename(file)).toMatch(/^\d{2}-[a-z0-9-]+\.ipynb$/);
      expect(nb.nbformat).toBe(4);
      expect(nb.metadata.kernelspec?.name).toBe("tslab");
      const code = nb.cells.filter((c) => c.cell_type === "code");
      expect(code.length).toBeGreaterThan(0);
      for (const cell of code) {
        expect(cell.outputs).toEqual([]);
        expect(cell.execution_count ?? null).toBeNull();
      }
      expect(nb.cells.filter((c) => c.cell_type === "markdown").length).toBeGreaterThan(0);
    },
  );

  it.each(notebooks.map((n) => [basename(n), n]))("%s: no code cell over 60 lines", (_name, file) => {
    const nb = JSON.parse(readFileSync(file, "utf8")) as Notebook;
    const long = nb.cells
      .map((cell, index) => ({ cell, index }))
      .filter(({ cell }) => cell.cell_type === "code")
      .map(({ cell, index }) => {
        const text = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
        return { index, lines: text.split("\n").length };
      })
      .filter((c) => c.lines > 60)
      .map((c) => `cell ${c.index}: ${c.lines} lines`);
    expect(long).toEqual([]);
  });
});
