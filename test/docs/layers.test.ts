/**
 * The layering rule of DESIGN.md and issue 7, checked on the real import graph of `src/`:
 * - the floor (`src/apimachinery`) imports nothing of ours but the clock; the clock imports nothing of ours;
 * - the machinery (client, cache, workqueue, controller, leaderelection, meta), the pictures (viz), the
 *   grading helpers and the built-in controllers never import the embedded server (`src/control-plane/apiserver`), nor
 *   anything that does (cluster, cli, bench);
 * - the server imports only the floor and the clock, never the machinery.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";

const src = join(projectRoot(), "src");

/** Every relative import (static, `export ... from`, dynamic) of a TypeScript source, as a src-relative path. */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of text.matchAll(pattern)) {
    const target = resolve(dirname(file), m[1]!);
    found.push(relative(src, target).split(sep).join("/"));
  }
  return found;
}

/** The wings of `src/`: each of their folders is an area of its own. */
const WINGS = ["control-plane", "workbook", "tools"];

/**
 * The area of a src-relative path: its top-level folder (`cache/reflector.js` -> `cache`; `index.js` -> `.`), or
 * the wing and its folder (`control-plane/apiserver/server.js` -> `control-plane/apiserver`).
 */
function areaOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if (WINGS.includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Which areas each area may import (besides itself). Areas not listed here are not constrained. */
const ALLOWED: Record<string, readonly string[]> = {
  clock: [],
  apimachinery: ["clock"],
  client: ["apimachinery", "clock"],
  workqueue: ["apimachinery", "clock"],
  meta: ["apimachinery"],
  cache: ["apimachinery", "clock", "client"],
  controller: ["apimachinery", "clock", "client", "cache", "workqueue", "meta"],
  leaderelection: ["apimachinery", "clock", "client"],
  "control-plane/builtin-controllers": [
    "apimachinery",
    "clock",
    "client",
    "cache",
    "workqueue",
    "controller",
    "meta",
    // kube-controller-manager elects itself with client-go's leaderelection.
    "leaderelection",
  ],
  "workbook/viz": ["apimachinery", "clock"],
  "workbook/grading": ["apimachinery", "clock", "workbook/viz"],
  "workbook/questions": ["apimachinery", "workbook/grading", "workbook/viz"],
  "control-plane/apiserver": ["apimachinery", "clock"],
  "workbook/fake-cloud": ["clock"],
  "workbook/workbook-api": ["apimachinery", "client", "controller"],
};

/** Every import that breaks {@link ALLOWED}, as `file -> target` lines. */
function layerViolations(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = areaOf(relative(src, path).split(sep).join("/"));
    const allowed = ALLOWED[from];
    if (!allowed) continue;
    for (const target of importsOf(path, text)) {
      const to = areaOf(target);
      if (to !== from && !allowed.includes(to)) out.push(`${relative(src, path)} -> ${target}`);
    }
  }
  return out;
}

describe("layers: imports run downward only", () => {
  const files = sources(src).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("finds the source tree", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path.endsWith(join("apimachinery", "errors.ts")))).toBe(true);
  });

  it("no area imports above itself (the floor imports nothing, machinery never imports the server)", () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it("catches a machinery file that imports the server, so the rule above can fail", () => {
    const text =
      'import { parseLabelSelector } from "../control-plane/apiserver/selectors/label-selector.js";\n';
    const bad = [
      { path: join(src, "cache", "lister.ts"), text },
      { path: join(src, "apimachinery", "keys.ts"), text: 'export * from "../cache/index.js";\n' },
      {
        path: join(src, "workbook", "viz", "chart.ts"),
        text: 'const m = await import("../../control-plane/apiserver/index.js");\n',
      },
    ];
    expect(layerViolations(bad)).toEqual([
      `${join("cache", "lister.ts")} -> control-plane/apiserver/selectors/label-selector.js`,
      `${join("apimachinery", "keys.ts")} -> cache/index.js`,
      `${join("workbook", "viz", "chart.ts")} -> control-plane/apiserver/index.js`,
    ]);
  });
});
