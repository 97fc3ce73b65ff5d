/**
 * No import cycles anywhere in `src/` (issue 20): the file-level graph of relative imports has no strongly
 * connected component of more than one file. `import type` counts: a type-only cycle is gone at run time, but
 * the two files still cannot be read, moved or layered one without the other, and under `verbatimModuleSyntax`
 * one edit that turns a type import into a value import would make it a run-time cycle (with its module
 * initialisation order hazards) without any other sign.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cyclesOf, importsOf, sources, src, srcRelative } from "./import-graph.js";

/** The graph of relative imports between the given sources, keyed by src-relative `.ts` path. */
function importGraph(files: ReadonlyArray<{ path: string; text: string }>): Map<string, Set<string>> {
  const known = new Set(files.map((f) => srcRelative(f.path)));
  const graph = new Map<string, Set<string>>();
  for (const { path, text } of files) {
    const targets = new Set<string>();
    for (const target of importsOf(path, text)) {
      const ts = target.replace(/\.js$/, ".ts");
      if (known.has(ts)) targets.add(ts);
    }
    graph.set(srcRelative(path), targets);
  }
  return graph;
}

describe("import cycles", () => {
  const files = sources(src).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("finds the import graph of the source tree", () => {
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("cache/reflector.ts")?.size).toBeGreaterThan(2);
  });

  it("no file imports itself back through others, type imports included", () => {
    expect(cyclesOf(importGraph(files))).toEqual([]);
  });

  it("catches a cycle, a type-only one included, so the rule above can fail", () => {
    const at = (p: string) => join(src, ...p.split("/"));
    const bad = [
      { path: at("meta/a.ts"), text: 'import { b } from "./b.js";\n' },
      { path: at("meta/b.ts"), text: 'import type { C } from "../cache/c.js";\n' },
      { path: at("cache/c.ts"), text: 'export { a } from "../meta/a.js";\n' },
      { path: at("meta/d.ts"), text: 'import { a } from "./a.js";\n' },
    ];
    expect(cyclesOf(importGraph(bad))).toEqual([["cache/c.ts", "meta/a.ts", "meta/b.ts"]]);
  });
});
