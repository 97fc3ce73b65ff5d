/**
 * README.md's data-path diagram promises that every box is a file. This test holds it to that: each node of the
 * diagram must name a source file (relative to `src/`) that exists, so renaming a file without redrawing the
 * box turns the suite red.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";
import { markdownMermaidBlocks } from "./mermaid-blocks.js";

const root = projectRoot();

/** A box of a mermaid flowchart: its id and its label text. */
interface DiagramBox {
  id: string;
  label: string;
}

/** The boxes declared in a flowchart (`id[label]`, `id[(label)]`, `id(label)`); subgraph titles are not boxes. */
function boxesOf(source: string): DiagramBox[] {
  const boxes: DiagramBox[] = [];
  for (const line of source.split("\n")) {
    if (/^\s*(subgraph|end\b|flowchart|classDef|class\b|%%)/.test(line)) continue;
    // Edge labels (|"..."|) are not boxes: drop them first.
    const text = line.replace(/\|[^|]*\|/g, " ");
    for (const m of text.matchAll(/\b([A-Za-z]\w*)(\[\(|\[|\()([^\])]*)(\)\]|\]|\))/g)) {
      boxes.push({ id: m[1]!, label: m[3]! });
    }
  }
  return boxes;
}

/** What is wrong with each box: no file named, or a named file that is not in `src/`. */
function boxProblems(source: string, srcDir: string): string[] {
  const problems: string[] = [];
  for (const box of boxesOf(source)) {
    const files = [...box.label.matchAll(/([\w./-]+\.ts)\b/g)].map((m) => m[1]!);
    if (files.length === 0) problems.push(`${box.id} "${box.label}" names no file`);
    for (const file of files) {
      if (!existsSync(join(srcDir, file))) problems.push(`${box.id}: src/${file} does not exist`);
    }
  }
  return problems;
}

function readmeDataPath(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## The data path"));
  const [block] = markdownMermaidBlocks(section, "README.md");
  if (!block) throw new Error("README.md has no mermaid diagram under '## The data path'");
  return block.source;
}

describe("README data path: every box is a file", () => {
  it("draws the whole path, DeltaFIFO included", () => {
    const ids = boxesOf(readmeDataPath()).map((b) => b.label.split("<br/>")[0]);
    for (const name of ["ListWatch", "Reflector", "DeltaFIFO", "SharedIndexInformer", "Indexer"])
      expect(ids).toContain(name);
    expect(ids).toEqual(expect.arrayContaining(["RateLimitingQueue", "Controller workers", "LeaderElector"]));
  });

  it("names an existing file in every box", () => {
    expect(boxProblems(readmeDataPath(), join(root, "src"))).toEqual([]);
  });

  it("fails a box whose file does not exist, or that names none", () => {
    const diagram = [
      "flowchart LR",
      '  A[Reflector<br/>cache/reflector.ts] -->|"x"| B[Gone<br/>cache/no-such-file.ts]',
      "  B --> C[(Nameless store)]",
    ].join("\n");
    expect(boxProblems(diagram, join(root, "src"))).toEqual([
      "B: src/cache/no-such-file.ts does not exist",
      'C "Nameless store" names no file',
    ]);
  });
});
