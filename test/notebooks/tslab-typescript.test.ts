import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "./notebook-support.js";
import { tslabDiagnostics, tslabTypeScriptVersion } from "./tslab-compiler.js";

/** The package as notebooks import it: the setup link plus the built declarations (CI always has both). */
const linked = existsSync(join(paths.packageLink, "dist", "index.d.ts"));
if (!linked && !process.env.CI)
  console.warn("skipping the TS 5.0 package check: run `npm run build && npm run setup`");

describe.skipIf(!linked && !process.env.CI)("what a notebook's TypeScript (tslab, TS 5.0) sees", () => {
  it("is TypeScript 5.0", () => {
    expect(tslabTypeScriptVersion).toMatch(/^5\.0\./);
  });

  it("compiles a cell importing the whole package by name from notebooks/", () => {
    const cell = [
      'import * as workbook from "kube-controller-workbook";',
      'import { FakeClock, Reflector, startCluster, type Cluster } from "kube-controller-workbook";',
      "export const used = [workbook, FakeClock, Reflector, startCluster] as const;",
      "export type C = Cluster;",
    ].join("\n");
    expect(tslabDiagnostics(cell, paths.notebooks)).toEqual([]);
  }, 60_000);

  it("resolves every subpath entry point (typesVersions) under node10 resolution", () => {
    const cell = [
      'import { MvccStore, type Instruments } from "kube-controller-workbook/apiserver";',
      'import { showMermaid, dataPathFlowchart } from "kube-controller-workbook/viz";',
      'import { eventually, type Check } from "kube-controller-workbook/grading";',
      'import * as questions from "kube-controller-workbook/questions";',
      "export const used = [MvccStore, showMermaid, dataPathFlowchart, eventually, questions] as const;",
      "export type T = [Instruments, Check];",
    ].join("\n");
    expect(tslabDiagnostics(cell, paths.notebooks)).toEqual([]);
  }, 60_000);

  it("keeps the server, pictures, grading and internals off the root entry point", () => {
    const internals = ["MvccStore", "showMermaid", "eventually", "WaitingHeap", "RingBuffer", "OwnerGraph"];
    const cell = [
      `import { ${internals.join(", ")} } from "kube-controller-workbook";`,
      `export const used = [${internals.join(", ")}] as const;`,
    ].join("\n");
    const diagnostics = tslabDiagnostics(cell, paths.notebooks).join("\n");
    for (const name of internals) expect(diagnostics).toMatch(new RegExp(`no exported member '${name}'`));
  }, 60_000);

  it("rejects declarations that need a newer TypeScript, so the check above can fail", () => {
    const dir = mkdtempSync(join(tmpdir(), "workbook-ts50-"));
    try {
      const pkg = join(dir, "node_modules", "too-new");
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "too-new", types: "index.d.ts" }));
      // Import attributes (`with { ... }`) parse only from TypeScript 5.3 on.
      const dts =
        'import type {} from "./data.json" with { type: "json" };\nexport declare function pick(x: number): number;\n';
      writeFileSync(join(pkg, "index.d.ts"), dts);
      const diagnostics = tslabDiagnostics('import { pick } from "too-new";\nexport const p = pick(1);', dir);
      expect(diagnostics.join("\n")).toMatch(/too-new\/index\.d\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
