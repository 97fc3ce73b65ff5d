/**
 * Fast tier's lab smoke test: the structure of labs/ and solutions/ (cheap file checks), and one lab
 * ({@link SMOKE_LAB}, the fastest to grade) graded both ways through the real `workbook grade --json`. Every
 * other lab is graded in the full tier (test/labs/both-ways.test.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listLabs } from "../../src/tools/cli/grade.js";
import { filesUnder, gradedBothWays, importsLeavingFolder, labs, paths } from "../labs/support/both-ways.js";
import { SMOKE_LAB } from "../tiers.js";

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
      const grader = join("src", "workbook", "graders", `${lab}.ts`);
      expect(existsSync(join(paths.root, grader)), grader).toBe(true);
      expect(existsSync(join(paths.graders, `${lab}.js`)), `${lab}.js in ${paths.graders}`).toBe(true);
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

  it("the smoke lab is one of the labs", () => {
    expect(labs).toContain(SMOKE_LAB);
  });
});

describe(`smoke: lab ${SMOKE_LAB} graded both ways`, () => {
  gradedBothWays(SMOKE_LAB);
});
