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
      'import { FakeClock, showMermaid, startCluster, type Cluster } from "kube-controller-workbook";',
      "export const used = [workbook, FakeClock, showMermaid, startCluster] as const;",
      "export type C = Cluster;",
    ].join("\n");
    expect(tslabDiagnostics(cell, paths.notebooks)).toEqual([]);
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
