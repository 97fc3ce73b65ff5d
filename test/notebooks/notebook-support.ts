import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { notebookProblems } from "../../src/tools/cli/notebook-env.js";
import { workbookPaths } from "../../src/tools/cli/workbook-paths.js";
import { QUESTION_BANK, QUESTION_MARKER } from "../../src/workbook/questions/index.js";
import { mermaidParseError } from "../docs/mermaid-parser.js";
import { BANK_REVIEW_NOTEBOOKS } from "../unit/questions/notebook-questions.js";

export const paths = workbookPaths();

/**
 * Why the notebook tests cannot run here, or undefined when they can. In CI the venv and kernel must exist, so
 * there a missing piece is a failure, not a skip.
 */
export function notebookSkipReason(): string | undefined {
  const problems = notebookProblems(paths);
  if (problems.length === 0) return undefined;
  if (process.env.CI) throw new Error(`CI must be able to run notebooks:\n${problems.join("\n")}`);
  return `notebook tooling not set up: ${problems.join(" ")}`;
}

/** Runs the built `workbook` CLI and collects its exit code and combined output. */
export function runWorkbook(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(paths.root, "dist", "tools", "cli", "main.js"), ...args], {
      cwd: paths.root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Every display output of type `mime` in the executed notebooks in `dir`. */
export function displayOutputs(dir: string, mime: string): Array<{ notebook: string; source: string }> {
  type Output = { output_type: string; data?: Record<string, string | string[]> };
  const found: Array<{ notebook: string; source: string }> = [];
  for (const notebook of readdirSync(dir).filter((f) => f.endsWith(".ipynb"))) {
    const nb = JSON.parse(readFileSync(join(dir, notebook), "utf8")) as {
      cells: Array<{ outputs?: Output[] }>;
    };
    for (const output of nb.cells.flatMap((c) => c.outputs ?? [])) {
      const data = output.data?.[mime];
      if (data !== undefined) found.push({ notebook, source: Array.isArray(data) ? data.join("") : data });
    }
  }
  return found;
}

/** Everything the cells of the executed notebook `file` printed to stdout. */
export function printed(file: string): string {
  type Output = { output_type: string; name?: string; text?: string | string[] };
  const nb = JSON.parse(readFileSync(file, "utf8")) as { cells: Array<{ outputs?: Output[] }> };
  return nb.cells
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.output_type === "stream" && o.name === "stdout")
    .map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? "")))
    .join("");
}

/**
 * Runs `notebooks` headless under WORKBOOK_CLUSTER (default embedded) and expects each to run clean with every
 * check passed, the diagrams it drew to parse, and exactly its bank questions shown.
 */
export async function expectNotebooksClean(notebooks: string[]): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "workbook-nb-"));
  try {
    const { code, output } = await runWorkbook(["notebooks", "--output-dir", out, ...notebooks], {
      ...process.env,
      WORKBOOK_CLUSTER: process.env.WORKBOOK_CLUSTER ?? "embedded",
    });
    expect(output, `notebooks failed:\n${output}`).toMatch(/notebooks: \d+ ran clean, 0 failing/);
    expect(code).toBe(0);
    // The diagrams the notebooks generated at run time parse too.
    const shown = displayOutputs(out, "text/vnd.mermaid");
    expect(shown.length).toBeGreaterThan(0);
    for (const { notebook, source } of shown) {
      expect(await mermaidParseError(source), `${notebook}:\n${source}`).toBeUndefined();
    }
    // Each notebook printed its check count, every check passed, and it showed exactly its bank questions.
    const executed = readdirSync(out).filter((f) => f.endsWith(".ipynb"));
    expect(executed.length, "executed notebooks written").toBe(notebooks.length);
    for (const notebook of executed) {
      expect(output, `${notebook} prints its checks`).toMatch(
        new RegExp(`ok   \\S*${notebook} \\([\\d.]+ s, checks (\\d+)/\\1( \\(\\d+ skipped\\))?\\)`),
      );
      const name = notebook.replace(/\.ipynb$/, "");
      const markdown = displayOutputs(out, "text/markdown").filter((d) => d.notebook === notebook);
      const ids = markdown.flatMap((d) => [...d.source.matchAll(QUESTION_MARKER)].map((m) => m[1]));
      const bank = QUESTION_BANK.filter((q) => q.notebook === name).map((q) => q.id);
      if (BANK_REVIEW_NOTEBOOKS.has(name)) {
        const known = new Set(QUESTION_BANK.map((q) => q.id));
        expect(
          ids.filter((id) => !known.has(id!)),
          `${notebook}: shown but not in the bank`,
        ).toEqual([]);
      } else {
        expect([...ids].sort(), `${notebook}: questions shown vs the bank`).toEqual([...bank].sort());
      }
    }
    expect(output).toMatch(/notebook\s+time\s+checks\s+result\n/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
