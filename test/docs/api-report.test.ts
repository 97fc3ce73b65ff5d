/**
 * The public surface of every entry point is checked in (issue 20): `test/docs/api/<entry>.txt` lists the names
 * the built entry point exports, one `value NAME` or `type NAME` line each, sorted by name. A change to what the
 * package exports is then a visible diff of that file. The list is read from the built declaration file that
 * package.json's `exports` names, with the TypeScript checker, so `export *` chains are followed as a user's
 * compiler follows them. After a deliberate change: `UPDATE_API_REPORT=1 npx vitest run test/docs/api-report.test.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";

const root = projectRoot();

/** The entry points of package.json: report name (`root` for ".") and the declaration file its `types` names. */
function entryPoints(): Array<{ name: string; types: string }> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    if (typeof target === "string" || !target.types) return [];
    const name = subpath === "." ? "root" : subpath.slice(2).replaceAll("/", "-");
    return [{ name, types: join(root, target.types) }];
  });
}

/** The report lines of each module: `value NAME` or `type NAME`, sorted by name. */
function exportReports(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not a module`);
    const lines = checker.getExportsOfModule(module).map((e) => {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      return `${target.flags & ts.SymbolFlags.Value ? "value" : "type"} ${e.name}`;
    });
    const nameOf = (line: string) => line.slice(line.indexOf(" ") + 1);
    out.set(
      file,
      lines.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0)),
    );
  }
  return out;
}

/** The report file's text: a header with the counts, then the lines. */
function reportText(name: string, lines: readonly string[]): string {
  const values = lines.filter((l) => l.startsWith("value ")).length;
  const header = `# kube-controller-workbook${name === "root" ? "" : `/${name}`}: ${lines.length} exports (${values} values, ${lines.length - values} types)`;
  return `${header}\n${lines.join("\n")}\n`;
}

describe("API report: each entry point's exports are checked in", () => {
  const entries = entryPoints();

  it("knows the entry points, the root and the wings", () => {
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        "root",
        "control-plane",
        "apiserver",
        "workbook",
        "viz",
        "grading",
        "questions",
      ]),
    );
  });

  it("every built entry point exports exactly the names of its report", { timeout: 300_000 }, () => {
    const missing = entries.filter((e) => !existsSync(e.types)).map((e) => e.types);
    expect(missing, "run `npm run build` first").toEqual([]);
    const reports = exportReports(entries.map((e) => e.types));
    for (const { name, types } of entries) {
      const file = join(root, "test", "docs", "api", `${name}.txt`);
      const actual = reportText(name, reports.get(types)!);
      if (process.env.UPDATE_API_REPORT === "1") writeFileSync(file, actual);
      const expected = existsSync(file) ? readFileSync(file, "utf8") : "(no report checked in)\n";
      expect(actual, `${name}: the exports differ from test/docs/api/${name}.txt`).toBe(expected);
    }
  });

  it("reads a module's exports as values and types, so a changed surface shows", () => {
    const lines = exportReports([join(root, "src", "clock", "index.ts")])
      .values()
      .next().value!;
    expect(lines).toContain("value FakeClock");
    expect(lines).toContain("type Clock");
    expect(reportText("clock", ["type Clock", "value FakeClock"])).toBe(
      "# kube-controller-workbook/clock: 2 exports (1 values, 1 types)\ntype Clock\nvalue FakeClock\n",
    );
  });
});
