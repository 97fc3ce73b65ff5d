/**
 * The graders prove themselves both ways, for every lab present (a new lab is covered as soon as its folders
 * exist): every check passes on `solutions/NN-topic`, and every check fails on the untouched skeleton in
 * `labs/NN-topic` (a check that passes on a skeleton grades nothing). Both run through the real `workbook grade
 * --json`, so the supervised worker, the TypeScript loader and the report are what is tested.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listLabs } from "../../src/tools/cli/grade.js";
import { workbookPaths } from "../../src/tools/cli/workbook-paths.js";
import { filesUnder, grade, split } from "./support/grade-cli.js";

const paths = workbookPaths();
const labs = listLabs(paths.labs);

/**
 * Imports in a lab's or solution's TypeScript that reach outside the lab folder by a relative path (into
 * src/, another lab...): labs import the package by name, as a learner's own project would.
 */
function importsLeavingFolder(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\.\/[^"']*)["']/g))
    found.push(m[1]!);
  return found;
}

describe("labs and solutions", () => {
  it("labs/ and solutions/ hold the same lab folders, with the same file names, a README and a grader", () => {
    expect(listLabs(paths.solutions)).toEqual(labs);
    for (const lab of labs) {
      const labFiles = filesUnder(join(paths.labs, lab));
      expect(labFiles, `labs/${lab}`).toContain("README.md");
      expect(
        filesUnder(join(paths.solutions, lab)).filter((f) => f !== "README.md"),
        `solutions/${lab}`,
      ).toEqual(labFiles.filter((f) => f !== "README.md"));
      expect(existsSync(join(paths.graders, `${lab}.grade.ts`)), `test/labs/${lab}.grade.ts`).toBe(true);
    }
  });

  it("labs and solutions import the package by name, never by a relative path out of their folder", () => {
    for (const root of [paths.labs, paths.solutions]) {
      for (const lab of labs) {
        for (const file of filesUnder(join(root, lab)).filter((f) => f.endsWith(".ts"))) {
          const text = readFileSync(join(root, lab, file), "utf8");
          expect(importsLeavingFolder(text), `${relative(paths.root, join(root, lab, file))}`).toEqual([]);
        }
      }
    }
    expect(
      importsLeavingFolder('import { x } from "../../src/cache/index.js";\nimport "./local.js";'),
    ).toEqual(["../../src/cache/index.js"]);
  });

  it("the rule has teeth: the fixture skeleton, two of whose checks pass untouched, is caught", () => {
    const fixtures = join(paths.root, "test", "fixtures", "grading");
    const skeleton = split(grade("01-counter", join(fixtures, "labs"), join(fixtures, "graders")));
    expect(skeleton.passing).toEqual([
      "a new counter starts at zero",
      "the value never overshoots the number of bumps",
    ]);
    expect(
      split(grade("01-counter", join(fixtures, "solutions"), join(fixtures, "graders"))).failing,
    ).toEqual([]);
  }, 240_000);
});

describe.each(labs)("lab %s graded both ways", (lab) => {
  it("every check passes on the solution", () => {
    const { failing, total } = split(grade(lab, paths.solutions));
    expect(total).toBeGreaterThan(0);
    expect(failing, "checks failing on solutions/").toEqual([]);
  }, 600_000);

  it("every check fails on the untouched skeleton, and the README states each requirement as the grader words it", () => {
    const report = grade(lab, paths.labs);
    const { passing, total } = split(report);
    expect(total).toBeGreaterThan(0);
    expect(passing, "checks passing on the skeleton in labs/ grade nothing").toEqual([]);
    // The skeleton fails its checks by running them, not by failing to load (the grader's stand-in requirement).
    const broken = report.labs
      .flatMap((l) => l.results)
      .filter((r) => /^the lab (has a grader|'s code loads)$/.test(r.requirement));
    expect(
      broken.map((r) => r.message),
      "the skeleton must load as shipped",
    ).toEqual([]);
    const readme = readFileSync(join(paths.labs, lab, "README.md"), "utf8").replace(/\s+/g, " ");
    const missing = report.labs
      .flatMap((l) => l.results.map((r) => r.requirement))
      .filter((requirement) => !readme.includes(requirement.replace(/\s+/g, " ")));
    expect(missing, `requirements not stated word for word in labs/${lab}/README.md`).toEqual([]);
  }, 600_000);
});
