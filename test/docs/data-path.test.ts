/**
 * README.md's data-path diagram promises that every box is a file. This test holds it to that: each node of the
 * diagram must name a source file (relative to `src/`) that exists, so renaming a file without redrawing the
 * box turns the suite red.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";
import { DATA_PATH_STAGES, dataPathGraph } from "../../src/workbook/viz/data-path.js";
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

/** README's diagram as a graph: arrows between box ids, and which box ids each subgraph holds. */
interface ReadmeGraph {
  edges: Array<[string, string]>;
  labels: Map<string, string>;
  members: Map<string, string[]>;
}

function readmeGraph(source: string): ReadmeGraph {
  const labels = new Map(boxesOf(source).map((b) => [b.id, b.label.split("<br/>")[0]!] as const));
  const members = new Map<string, string[]>();
  const edges: Array<[string, string]> = [];
  let subgraph: string | undefined;
  for (const line of source.split("\n")) {
    const open = /^\s*subgraph\s+(\w+)/.exec(line);
    if (open) {
      subgraph = open[1]!;
      members.set(subgraph, []);
      continue;
    }
    if (/^\s*end\s*$/.test(line)) {
      subgraph = undefined;
      continue;
    }
    // Drop labels of boxes and edges, leaving "A --> B -.-> C" chains of ids.
    const bare = line
      .replace(/\|[^|]*\|/g, " ")
      .replace(/(\[\(|\[|\()[^\])]*(\)\]|\]|\))/g, "")
      .replace(/-\.\s*[\w ]+\s*\.->/g, "-.->");
    const ids = bare
      .split(/\s*(?:-->|-\.->)\s*/)
      .map((t) => t.trim())
      .filter((t) => /^\w+$/.test(t));
    if (subgraph) members.get(subgraph)!.push(...ids);
    for (let i = 0; i + 1 < ids.length; i++) edges.push([ids[i]!, ids[i + 1]!]);
  }
  return { edges, labels, members };
}

const squash = (text: string) => text.replace(/\s+/g, "").toLowerCase();

/**
 * The README box ids that draw a stage of the notebooks' picture: a subgraph or box whose id is the stage's name,
 * or a box whose first label line is the stage's label (whitespace ignored); a subgraph brings its members.
 */
function readmeIdsOf(stage: string, label: string, graph: ReadmeGraph): string[] {
  const ids = new Set<string>();
  for (const [id, text] of graph.labels) {
    if (id === stage || squash(text) === squash(label) || squash(text) === squash(stage)) ids.add(id);
  }
  if (graph.members.has(stage)) for (const id of [stage, ...graph.members.get(stage)!]) ids.add(id);
  return [...ids];
}

/**
 * Whether README draws a way from one stage to another that passes through no third stage (helper boxes such
 * as the handler buffers or the Lister may sit between).
 */
function readmeConnects(from: string[], to: string[], stageIds: Set<string>, graph: ReadmeGraph): boolean {
  const seen = new Set(from);
  const frontier = [...from];
  while (frontier.length > 0) {
    const at = frontier.pop()!;
    for (const [a, b] of graph.edges) {
      if (a !== at || seen.has(b)) continue;
      if (to.includes(b)) return true;
      seen.add(b);
      if (!stageIds.has(b)) frontier.push(b);
    }
  }
  return false;
}

/** Every edge of the notebooks' data-path picture that README's diagram does not draw. */
function pictureProblems(readme: string, picture: ReturnType<typeof dataPathGraph>): string[] {
  const graph = readmeGraph(readme);
  const idsOf = new Map(picture.nodes.map((n) => [n.id, readmeIdsOf(n.id, n.label ?? n.id, graph)] as const));
  const problems: string[] = [];
  for (const [stage, ids] of idsOf) if (ids.length === 0) problems.push(`${stage}: no box in README`);
  const stageIds = new Set([...idsOf.values()].flat());
  for (const edge of picture.edges) {
    const from = idsOf.get(edge.from) ?? [];
    const to = idsOf.get(edge.to) ?? [];
    // A dashed edge is a read: the picture draws the data's way, README may draw the call's way.
    const drawn =
      readmeConnects(from, to, stageIds, graph) ||
      (edge.dashed === true && readmeConnects(to, from, stageIds, graph));
    if (!drawn) problems.push(`${edge.from} -> ${edge.to} is not in README's diagram`);
  }
  return problems;
}

describe("the notebooks' data-path picture (viz dataPathFlowchart) agrees with README's diagram", () => {
  it("has a README box for every stage and draws only README's arrows", () => {
    expect(DATA_PATH_STAGES.length).toBeGreaterThanOrEqual(8);
    expect(pictureProblems(readmeDataPath(), dataPathGraph())).toEqual([]);
  });

  it("fails a picture that skips a stage (Reflector straight into the Indexer)", () => {
    const picture = dataPathGraph();
    picture.edges.push({ from: "Reflector", to: "Indexer" });
    expect(pictureProblems(readmeDataPath(), picture)).toEqual([
      "Reflector -> Indexer is not in README's diagram",
    ]);
  });
});
