import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listNotebooks } from "../../src/tools/cli/notebooks.js";
import { SMOKE_NOTEBOOK } from "../tiers.js";
import {
  displayOutputs,
  expectNotebooksClean,
  notebookSkipReason,
  paths,
  printed,
  runWorkbook,
} from "./notebook-support.js";

const skipReason = notebookSkipReason();
if (skipReason) console.warn(`skipping notebook execution tests: ${skipReason}`);

const fixtures = join(paths.root, "test", "fixtures", "notebooks");
const fixture = (name: string) => join(fixtures, name);
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe.skipIf(skipReason !== undefined)("npm run notebooks (headless, real tslab kernel)", () => {
  it("passes a clean notebook and fails each broken one, naming the cell and the error", async () => {
    const files = ["passes.ipynb", "throws.ipynb", "type-error.ipynb"].map(fixture);
    const before = files.map(digest);
    const out = mkdtempSync(join(tmpdir(), "workbook-nb-"));
    const { code, output } = await runWorkbook(["notebooks", "--output-dir", out, ...files]);
    const shown = displayOutputs(out, "text/vnd.mermaid");
    const markdown = displayOutputs(out, "text/markdown");
    const stdout = printed(join(out, "passes.ipynb"));
    rmSync(out, { recursive: true, force: true });
    expect(code).toBe(1);
    // Inside the kernel, src/workbook/viz found tslab lazily and sent a real text/vnd.mermaid display (not the text fallback).
    expect(shown).toEqual([{ notebook: "passes.ipynb", source: "flowchart LR\n  informer --> queue" }]);
    // liveDisplay updates one output in place: only the last update remains.
    expect(markdown).toEqual([{ notebook: "passes.ipynb", source: "queue depth: 0" }]);
    // Each subpath entry point (package.json `exports` + `typesVersions`) loads in the real kernel.
    expect(stdout).toContain("entry points: function function object");
    expect(output).toContain(`ok   ${fixture("passes.ipynb")}`);
    expect(output).toContain(`FAIL ${fixture("throws.ipynb")}`);
    expect(output).toContain('cell 2 (throw new Error("fixture exception in cell two");) failed');
    expect(output).not.toContain("never runs");
    expect(output).toContain(`FAIL ${fixture("type-error.ipynb")}`);
    expect(output).toContain("Type 'string' is not assignable to type 'number'");
    expect(output).toContain("notebooks: 1 ran clean, 2 failing");
    // The runner only reads notebooks: sources stay byte-identical (stored without outputs).
    expect(files.map(digest)).toEqual(before);
  }, 300_000);

  it("reports a failed check of a broken notebook cell with its message, and still runs the later checks", async () => {
    // A copy of 00-cluster whose section 2 forgets one ConfigMap when it filters the list. The copy lives inside
    // the checkout so the kernel resolves the package by name, as it does for notebooks/.
    const source = readFileSync(join(paths.root, "notebooks", "00-cluster.ipynb"), "utf8");
    const broken = source.replace("names.includes(cm.metadata", "names.slice(1).includes(cm.metadata");
    expect(broken).not.toBe(source);
    mkdirSync(join(paths.root, ".workbook"), { recursive: true });
    const dir = mkdtempSync(join(paths.root, ".workbook", "broken-nb-"));
    try {
      writeFileSync(join(dir, "00-cluster.ipynb"), broken);
      const { code, output } = await runWorkbook(["notebooks", join(dir, "00-cluster.ipynb")]);
      expect(code).toBe(1);
      expect(output).toMatch(/FAIL \S+00-cluster\.ipynb \([\d.]+ s, checks 8\/9 \(1 failed\)\)/);
      expect(output).toContain("checks: 8/9 passed, 1 failed (00-cluster)");
      expect(output).toContain(
        '- our three ConfigMaps are listed: expected ["alpha","beta","gamma"], got ConfigMap names listed: ["beta","gamma"] (look at section 2, the cell that creates the ConfigMaps)',
      );
      expect(output).not.toMatch(/\n\s+at \S+ \(/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("runs 00-cluster twice in a row in one kernel (Run All twice)", async () => {
    const { code, output } = await runWorkbook([
      "notebooks",
      "--twice",
      join(paths.root, "notebooks", "00-cluster.ipynb"),
    ]);
    expect(output, output).toMatch(/ok {3}\S+00-cluster\.ipynb \([\d.]+ s, checks (\d+)\/\1/);
    expect(code).toBe(0);
  }, 180_000);

  it("reports a notebook file that is not a notebook, without a traceback", async () => {
    const { code, output } = await runWorkbook(["notebooks", fixture("not-json.ipynb")]);
    expect(code).toBe(1);
    expect(output).toContain("could not read the notebook: NotJSONError");
    expect(output).not.toContain("Traceback");
  }, 60_000);

  it("fails a cell that runs past the per-cell timeout", async () => {
    const { code, output } = await runWorkbook(["notebooks", "--timeout", "3", fixture("hangs.ipynb")]);
    expect(code).toBe(1);
    expect(output).toContain(`FAIL ${fixture("hangs.ipynb")}`);
    expect(output).toContain("did not finish within 3 s");
  }, 120_000);

  it("runs every notebook in notebooks/ but the smoke one clean under WORKBOOK_CLUSTER", async () => {
    // The smoke notebook runs in the fast tier (test/smoke/notebook.test.ts), with the same checks.
    const all = listNotebooks(join(paths.root, "notebooks"));
    const rest = all.filter((file) => !file.endsWith(`${SMOKE_NOTEBOOK}.ipynb`));
    expect(rest.length).toBe(all.length - 1);
    await expectNotebooksClean(rest);
  }, 1_800_000);
});
