/**
 * Fast tier's notebook smoke test: one notebook ({@link SMOKE_NOTEBOOK}, the smallest that still starts the tslab
 * kernel and talks to a cluster) run headless, clean, with every check passed, its diagrams parsing and exactly
 * its bank questions shown. Every other notebook, and the runner's fixtures, run in the full tier
 * (test/notebooks/notebooks.test.ts).
 */
import { join } from "node:path";
import { describe, it } from "vitest";
import { expectNotebooksClean, notebookSkipReason, paths } from "../notebooks/notebook-support.js";
import { SMOKE_NOTEBOOK } from "../tiers.js";

const skipReason = notebookSkipReason();
if (skipReason) console.warn(`skipping the notebook smoke test: ${skipReason}`);

describe.skipIf(skipReason !== undefined)(`smoke: notebook ${SMOKE_NOTEBOOK} headless`, () => {
  it("runs clean, every check passed, under WORKBOOK_CLUSTER", async () => {
    await expectNotebooksClean([join(paths.root, "notebooks", `${SMOKE_NOTEBOOK}.ipynb`)]);
  }, 600_000);
});
