/**
 * The relative-import graph of `src/`, read from the sources as text: what the layers and cycles tests judge.
 * Static imports, `export ... from`, side-effect imports and dynamic `import()` all count, `import type` too.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";

export const src = join(projectRoot(), "src");

/** Every `.ts` source under `dir` (declaration files left out). */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** A path relative to `src/`, with `/` separators. */
export function srcRelative(path: string): string {
  return relative(src, path).split(sep).join("/");
}

/** Every relative import of a TypeScript source `file` (absolute), as src-relative paths as written (`.js`). */
export function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of text.matchAll(pattern)) found.push(srcRelative(resolve(dirname(file), m[1]!)));
  return found;
}

/** The wings of `src/`: each of their folders is an area of its own. */
export const WINGS = ["control-plane", "workbook", "tools"] as const;

/**
 * The area of a src-relative path: its top-level folder (`cache/reflector.js` -> `cache`; `index.js` -> `.`), or
 * the wing and its folder (`control-plane/apiserver/server.js` -> `control-plane/apiserver`; a file directly in
 * a wing, such as `workbook/index.ts`, is the wing's own area `workbook`).
 */
export function areaOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if ((WINGS as readonly string[]).includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

/** The strongly connected components of a directed graph with more than one node (Tarjan): its cycles. */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}
