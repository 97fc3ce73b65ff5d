/**
 * The graders prove themselves both ways, for every lab present (a new lab is covered as soon as its folders
 * exist): every check passes on `solutions/NN-topic`, and every check fails on the untouched skeleton in
 * `labs/NN-topic` (a check that passes on a skeleton grades nothing). Both run through the real `workbook grade
 * --json`, so the supervised worker, the TypeScript loader and the report are what is tested.
 *
 * Full tier (`npm run test:all`). The smoke lab ({@link SMOKE_LAB}) and the structure checks of labs/ and
 * solutions/ run in the fast tier instead, in test/smoke/lab.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasGoTrack } from "../../src/tools/cli/grade.js";
import { goUnavailableReason } from "../../src/workbook/grading/go-toolchain.js";
import { SMOKE_LAB } from "../tiers.js";
import { grade, gradedBothWays, labs, paths, split } from "./support/both-ways.js";

describe("labs and solutions", () => {
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

describe.each(labs.filter((lab) => lab !== SMOKE_LAB))("lab %s graded both ways", (lab) => {
  gradedBothWays(lab);
});

// The Go track (labs/NN-topic/go, graded with --go): the same requirements, on a controller-runtime program.
const goUnavailable = await goUnavailableReason();
describe.skipIf(goUnavailable !== undefined).each(labs.filter((lab) => hasGoTrack(paths.labs, lab)))(
  `lab %s, Go track, graded both ways${goUnavailable ? ` (skipped: ${goUnavailable})` : ""}`,
  (lab) => {
    gradedBothWays(lab, { go: true });
  },
);
