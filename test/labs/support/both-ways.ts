/**
 * The graders prove themselves both ways (see test/labs/both-ways.test.ts): every check passes on
 * `solutions/NN-topic` and fails on the untouched skeleton in `labs/NN-topic`, both through the real
 * `workbook grade --json`. Shared by the full tier (every lab) and the fast tier's smoke lab (test/smoke/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { listLabs } from "../../../src/tools/cli/grade.js";
import { workbookPaths } from "../../../src/tools/cli/workbook-paths.js";
import { grade, split } from "./grade-cli.js";

export { filesUnder, grade, split } from "./grade-cli.js";

export const paths = workbookPaths();
export const labs = listLabs(paths.labs);

/**
 * Imports in a lab's or solution's TypeScript that reach outside the lab folder by a relative path (into
 * src/, another lab...): labs import the package by name, as a learner's own project would.
 */
export function importsLeavingFolder(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\.\/[^"']*)["']/g))
    found.push(m[1]!);
  return found;
}

/**
 * Registers the two tests of one lab: every check passes on the solution, every check fails on the skeleton;
 * with `go`, of its Go track (the go/ folders, graded with `--go`).
 */
export function gradedBothWays(lab: string, options: { go?: boolean } = {}): void {
  it("every check passes on the solution", () => {
    const { failing, total } = split(grade(lab, paths.solutions, paths.graders, options));
    expect(total).toBeGreaterThan(0);
    expect(failing, "checks failing on solutions/").toEqual([]);
  }, 600_000);

  it("every check fails on the untouched skeleton, and the README states each requirement as the grader words it", () => {
    const report = grade(lab, paths.labs, paths.graders, options);
    const { passing, total } = split(report);
    expect(total).toBeGreaterThan(0);
    expect(passing, "checks passing on the skeleton in labs/ grade nothing").toEqual([]);
    // The skeleton fails its checks by running them, not by failing to load (the grader's stand-in requirement).
    const broken = report.labs
      .flatMap((l) => l.results)
      .filter((r) => /^the (lab (has a grader|'s code loads)|Go program builds)$/.test(r.requirement));
    expect(
      broken.map((r) => r.message),
      "the skeleton must load (and build) as shipped",
    ).toEqual([]);
    const readme = readFileSync(join(paths.labs, lab, "README.md"), "utf8").replace(/\s+/g, " ");
    const missing = report.labs
      .flatMap((l) => l.results.map((r) => r.requirement))
      .filter((requirement) => !readme.includes(requirement.replace(/\s+/g, " ")));
    expect(missing, `requirements not stated word for word in labs/${lab}/README.md`).toEqual([]);
  }, 600_000);
}
