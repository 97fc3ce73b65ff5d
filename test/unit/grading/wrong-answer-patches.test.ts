/**
 * The wrong answers of the full tier's suite are patches on the reference solutions. This fast check applies each
 * one to today's solution (without grading it), so a solution edited under an answer fails `npm test` with the
 * answer and the line, and proves the strict applier refuses a patch that no longer matches.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workbookPaths } from "../../../src/tools/cli/workbook-paths.js";
import { applyHunks, parseUnifiedDiff } from "../../labs/support/unified-diff.js";
import { patchedFiles } from "../../labs/support/wrong-answers.js";

const paths = workbookPaths();
const root = join(paths.root, "test", "labs", "wrong-answers");
const answers = readdirSync(root)
  .sort()
  .flatMap((lab) => readdirSync(join(root, lab)).map((name) => ({ lab, name, dir: join(root, lab, name) })));

describe("wrong answers are patches on today's solutions", () => {
  it("finds the answers", () => {
    expect(answers.length).toBeGreaterThanOrEqual(40);
  });

  it.each(answers.map((a) => [`${a.lab}/${a.name}`, a] as const))(
    "%s applies and changes its solution",
    (_, a) => {
      expect(existsSync(join(a.dir, "answer.json")), "answer.json").toBe(true);
      const solution = join(paths.solutions, a.lab);
      const files = patchedFiles(a.dir, solution);
      for (const [file, text] of files)
        expect(text, file).not.toBe(readFileSync(join(solution, file), "utf8"));
    },
  );
});

describe("labs/README.md's table of the suite's report", () => {
  it("counts, per lab and track, the wrong answers and alternatives this tree holds", () => {
    const counts = new Map<string, { wrong: number; alternative: number }>();
    for (const a of answers) {
      const meta = JSON.parse(readFileSync(join(a.dir, "answer.json"), "utf8")) as {
        kind: string;
        track?: string;
      };
      const key = meta.track === "go" ? `${a.lab}/go` : a.lab;
      const row = counts.get(key) ?? { wrong: 0, alternative: 0 };
      if (meta.kind === "wrong") row.wrong++;
      else row.alternative++;
      counts.set(key, row);
    }
    const want = [...counts.keys()].sort().map((key) => {
      const { wrong, alternative } = counts.get(key)!;
      return `- ${key}: wrong answers caught ${wrong}/${wrong}, alternatives passing ${alternative}/${alternative}`;
    });
    const readme = readFileSync(join(paths.labs, "README.md"), "utf8");
    const table = readme.split("\n").filter((line) => /^- \S+: wrong answers caught /.test(line));
    expect(table).toEqual(want);
  });
});

describe("the strict unified-diff applier", () => {
  const original = "one\ntwo\nthree\nfour\n";
  const patch = ["--- a/f.ts", "+++ b/f.ts", "@@ -2,2 +2,2 @@", " two", "-three", "+THREE", ""].join("\n");

  it("applies a hunk where it says", () => {
    const hunks = parseUnifiedDiff(patch).get("f.ts")!;
    expect(applyHunks(original, hunks, "f.ts")).toBe("one\ntwo\nTHREE\nfour\n");
  });

  it("refuses a hunk whose lines are not where it says, naming the line", () => {
    const hunks = parseUnifiedDiff(patch).get("f.ts")!;
    expect(() => applyHunks("one\n2\nthree\nfour\n", hunks, "f.ts")).toThrow(
      /line 2 is "2", the patch expects "two"/,
    );
  });
});
