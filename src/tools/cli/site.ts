/**
 * `workbook site [--out DIR] [--executed DIR]` (npm run site): executes every notebook headless on the embedded
 * backend (through `workbook notebooks`, the same runner as `npm run notebooks`), then renders them, the labs'
 * READMEs and the question bank into a static HTML site (src/workbook/site/build.ts) that works offline.
 *
 * A notebook that fails still gets its page, showing the error where it happened; the command then exits 1.
 * `--executed DIR` skips execution and uses executed notebooks already in DIR (from an earlier
 * `workbook notebooks --output-dir DIR`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { QUESTION_BANK } from "../../workbook/questions/index.js";
import { buildSite } from "../../workbook/site/build.js";
import { exitCode } from "./notebook-env.js";
import { listNotebooks } from "./notebooks.js";
import { workbookPaths } from "./workbook-paths.js";

/** Executes every notebook into `dir` with `workbook notebooks`; resolves with its exit code. */
function executeNotebooks(root: string, dir: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [join(root, "dist", "tools", "cli", "main.js"), "notebooks", "--output-dir", dir],
    {
      cwd: root,
      env: { ...process.env, WORKBOOK_CLUSTER: process.env.WORKBOOK_CLUSTER || "embedded" },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  return exitCode(child, "workbook site");
}

/** `workbook site`: see the module comment. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: "string" }, executed: { type: "string" } } });
  const paths = workbookPaths();
  const out = resolve(values.out ?? join(paths.root, "site"));
  const stored = listNotebooks(paths.notebooks);
  const started = Date.now();
  let code = 0;
  let executed = values.executed ? resolve(values.executed) : undefined;
  let scratch: string | undefined;
  if (!executed) {
    scratch = mkdtempSync(join(tmpdir(), "workbook-site-"));
    executed = scratch;
    code = await executeNotebooks(paths.root, executed);
  }
  const ran = Date.now();
  try {
    // A notebook the runner could not even write (it crashed) is shown as stored, without outputs.
    const notebooks = stored.map((file) => {
      const copy = join(executed!, basename(file));
      return existsSync(copy) ? copy : file;
    });
    const { pages } = buildSite({ root: paths.root, notebooks, questions: QUESTION_BANK, out });
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    process.stdout.write(
      `workbook site: ${pages.length} pages in ${out} (notebooks executed in ${seconds(ran - started)} s, ` +
        `rendered in ${seconds(Date.now() - ran)} s); open ${join(out, "index.html")}\n`,
    );
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (code !== 0) process.stderr.write("workbook site: a notebook failed; its page shows where\n");
  return code;
}
