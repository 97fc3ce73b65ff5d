import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { notebookSkipReason, paths, runWorkbook } from "./notebook-support.js";

const skipReason = notebookSkipReason();
if (skipReason) console.warn(`skipping notebook execution tests: ${skipReason}`);

const fixtures = join(paths.root, "test", "fixtures", "notebooks");
const fixture = (name: string) => join(fixtures, name);
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe.skipIf(skipReason !== undefined)("npm run notebooks (headless, real tslab kernel)", () => {
  it("passes a clean notebook and fails each broken one, naming the cell and the error", async () => {
    const files = ["passes.ipynb", "throws.ipynb", "type-error.ipynb"].map(fixture);
    const before = files.map(digest);
    const { code, output } = await runWorkbook(["notebooks", ...files]);
    expect(code).toBe(1);
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

  it("fails a cell that runs past the per-cell timeout", async () => {
    const { code, output } = await runWorkbook(["notebooks", "--timeout", "3", fixture("hangs.ipynb")]);
    expect(code).toBe(1);
    expect(output).toContain(`FAIL ${fixture("hangs.ipynb")}`);
    expect(output).toContain("did not finish within 3 s");
  }, 120_000);

  it("runs every notebook in notebooks/ clean under WORKBOOK_CLUSTER", async () => {
    const notebooks = "notebooks/";
    const { code, output } = await runWorkbook(["notebooks"], {
      ...process.env,
      WORKBOOK_CLUSTER: process.env.WORKBOOK_CLUSTER ?? "embedded",
    });
    expect(output, `notebooks in ${notebooks} failed:\n${output}`).toMatch(
      /notebooks: \d+ ran clean, 0 failing/,
    );
    expect(code).toBe(0);
  }, 600_000);
});
