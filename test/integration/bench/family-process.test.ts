import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type * as FamilyProcess from "../../../src/tools/bench/family-process.js";
import type * as Registry from "../../../src/tools/bench/registry.js";

/** A family runs in a child forked from the build (dist/), as `npm run bench` runs it. */
const built = (name: string) => resolve(`dist/tools/bench/${name}.js`);

describe.skipIf(!existsSync(built("family-process")))("a benchmark family in a fresh process", () => {
  it("answers the family's result, and an error for a family that is not there", {
    timeout: 60_000,
  }, async () => {
    const { runFamilyInFreshProcess }: typeof FamilyProcess = await import(
      pathToFileURL(built("family-process")).href
    );
    const { loadFamilies }: typeof Registry = await import(pathToFileURL(built("registry")).href);
    const index = (await loadFamilies()).findIndex((b) => b.name === "workqueue");
    expect(index).toBeGreaterThanOrEqual(0);
    const ran = await runFamilyInFreshProcess(index, true);
    expect(ran.error).toBeUndefined();
    expect(ran.result?.figures.map((f) => f.name)).toContain("add/get/done cycles, one worker");
    const missing = await runFamilyInFreshProcess(999, true);
    expect(missing.result).toBeUndefined();
    expect(missing.error).toMatch(/no benchmark family 999/);
  });
});
