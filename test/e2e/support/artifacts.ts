/**
 * Where the browser tests leave what a person should look at: screenshots under `test-results/` (gitignored),
 * one folder per suite, emptied when the suite starts so a folder only ever holds one run.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** `test-results/<suite>` under `root`, emptied and re-created. */
export function freshArtifactDir(root: string, suite: string): string {
  const dir = join(root, "test-results", suite);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
