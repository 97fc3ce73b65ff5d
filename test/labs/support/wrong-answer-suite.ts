/**
 * The graders pass only correct controllers. `test/labs/wrong-answers/<lab>/<answer>/` holds `answer.patch`, a
 * small unified diff on `solutions/<lab>/` (paths relative to the lab folder, as `diff -u` writes them; it must
 * apply exactly, see support/wrong-answers.ts), and an `answer.json`:
 *
 * - `{"kind": "wrong", "behaviour": "...", "failsWith": ["<part of a requirement>", ...], "alsoFails"?: [...]}`:
 *   a plausible mistake that works in a happy-path demo. Every requirement named in `failsWith` must fail, and
 *   any other failing requirement must be named in `alsoFails` (so this report stays honest about collateral),
 *   except those not checked because a requirement they build on failed (`skipped`: the same root cause).
 * - `{"kind": "alternative", "behaviour": "..."}`: a correct answer written differently; every requirement passes.
 *
 * Each answer is graded through the real `workbook grade --json` (as both-ways.test.ts does), on a copy of the
 * solution with the patch applied, inside the checkout (so the lab imports the package by name as in labs/).
 * The suite ends by printing "wrong answers caught N/N, alternatives passing M/M", in total and per lab.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { workbookPaths } from "../../../src/tools/cli/workbook-paths.js";
import { grade } from "./grade-cli.js";
import { patchedFiles } from "./wrong-answers.js";

const paths = workbookPaths();
const answersRoot = join(paths.root, "test", "labs", "wrong-answers");

/** What `answer.json` says. */
interface AnswerMeta {
  kind: "wrong" | "alternative";
  behaviour: string;
  failsWith?: string[];
  alsoFails?: string[];
  /** `"go"`: the patch changes the lab's Go track (its go/ folder), graded with `--go`. */
  track?: "go";
}

interface Answer {
  lab: string;
  name: string;
  dir: string;
  meta: AnswerMeta;
}

function answers(): Answer[] {
  if (!existsSync(answersRoot)) return [];
  const out: Answer[] = [];
  for (const lab of readdirSync(answersRoot).sort()) {
    const labDir = join(answersRoot, lab);
    if (!existsSync(join(paths.solutions, lab))) continue;
    for (const name of readdirSync(labDir).sort()) {
      const dir = join(labDir, name);
      const metaFile = join(dir, "answer.json");
      if (!existsSync(metaFile)) continue;
      out.push({ lab, name, dir, meta: JSON.parse(readFileSync(metaFile, "utf8")) as AnswerMeta });
    }
  }
  return out;
}

/** Outcome of one answer, for the closing report. */
interface Outcome {
  /** The lab folder, with "/go" for an answer on the Go track: "05-reconcile/go". */
  lab: string;
  name: string;
  kind: AnswerMeta["kind"];
  ok: boolean;
  seconds: number;
}

/** Copies solutions/<lab> into a fresh labs dir inside the checkout, applies the patch, returns the labs dir. */
function materialize(answer: Answer, scratch: string): string {
  const labsDir = mkdtempSync(join(scratch, `${answer.lab}-${answer.name}-`));
  const target = join(labsDir, answer.lab);
  cpSync(join(paths.solutions, answer.lab), target, { recursive: true });
  for (const [file, text] of patchedFiles(answer.dir, join(paths.solutions, answer.lab)))
    writeFileSync(join(target, file), text);
  return labsDir;
}

/** The requirements in `names` that at least one of `parts` is a substring of. */
const matching = (names: string[], parts: readonly string[]) =>
  names.filter((n) => parts.some((p) => n.includes(p)));

/** Which answers a suite file grades: the TypeScript track's, or the Go track's (`"track": "go"`). */
export type AnswerTrack = "typescript" | "go";

/**
 * The suite for the answers of one track. Two files run it (wrong-answers.test.ts and wrong-answers-go.test.ts)
 * so vitest grades the tracks side by side: together they take most of the full tier's time.
 */
export function wrongAnswerSuite(track: AnswerTrack): void {
  const all = answers();
  const labs = [...new Set(all.map((a) => a.lab))];
  const graded = all.filter((a) => (a.meta.track === "go" ? "go" : "typescript") === track);
  const outcomes: Outcome[] = [];
  describe(`wrong answers fail with their named requirement, alternatives pass (${track} track)`, () => {
    // Scratch space in the checkout (.workbook/ is ignored by git): lab code resolves the package by name there.
    const scratch = join(paths.root, ".workbook", "wrong-answers");

    afterAll(() => {
      const line = (rows: Outcome[]) => {
        const wrong = rows.filter((o) => o.kind === "wrong");
        const alt = rows.filter((o) => o.kind === "alternative");
        const caught = wrong.filter((o) => o.ok).length;
        const passing = alt.filter((o) => o.ok).length;
        return `wrong answers caught ${caught}/${wrong.length}, alternatives passing ${passing}/${alt.length}`;
      };
      const lines = [line(outcomes)];
      for (const lab of [...new Set(outcomes.map((o) => o.lab))].sort()) {
        const rows = outcomes.filter((o) => o.lab === lab);
        const slowest = Math.max(0, ...rows.filter((o) => o.kind === "wrong").map((o) => o.seconds));
        lines.push(`  ${lab}: ${line(rows)} (slowest wrong answer graded in ${slowest.toFixed(1)} s)`);
      }
      for (const o of outcomes.filter((x) => !x.ok)) lines.push(`  NOT MET: ${o.lab}/${o.name} (${o.kind})`);
      console.log(lines.join("\n"));
    });

    it.runIf(track === "typescript")(
      "every lab with a grader has at least 4 wrong answers and 1 alternative here",
      () => {
        for (const lab of labs) {
          const rows = all.filter((a) => a.lab === lab);
          expect(rows.filter((a) => a.meta.kind === "wrong").length, lab).toBeGreaterThanOrEqual(4);
          expect(rows.filter((a) => a.meta.kind === "alternative").length, lab).toBeGreaterThanOrEqual(1);
          for (const a of rows) {
            expect(a.meta.behaviour, `${lab}/${a.name}: behaviour`).toMatch(/\w/);
            if (a.meta.kind === "wrong")
              expect(a.meta.failsWith?.length, `${lab}/${a.name}: failsWith`).toBeGreaterThan(0);
          }
        }
      },
    );

    it.each(graded.map((a) => [`${a.lab}/${a.name}`, a] as const))(
      "%s",
      (_label, answer) => {
        mkdirSync(scratch, { recursive: true });
        const labsDir = materialize(answer, scratch);
        const started = Date.now();
        let ok = false;
        try {
          const report = grade(answer.lab, labsDir, undefined, { go: answer.meta.track === "go" });
          const results = report.labs.flatMap((l) => l.results);
          const names = results.map((r) => r.requirement);
          // A requirement that does not apply to the track (Check.notApplicable) neither passes nor fails.
          const failed = results.filter((r) => !r.passed && r.notApplicable === undefined);
          const failedNames = failed.map((r) => r.requirement);
          // Not run because a requirement they build on failed: a consequence, reported by that requirement.
          const skipped = new Set(failed.filter((r) => r.skipped).map((r) => r.requirement));
          const why = failed.map((r) => `${r.requirement}: ${r.message}`).join("\n");
          expect(
            failedNames.filter((n) => /^the (lab (has a grader|'s code loads)|Go program builds)$/.test(n)),
            `the answer must load: ${why}`,
          ).toEqual([]);
          if (answer.meta.kind === "alternative") {
            expect(failedNames, `a correct alternative failed:\n${why}`).toEqual([]);
          } else {
            const named = answer.meta.failsWith ?? [];
            for (const part of [...named, ...(answer.meta.alsoFails ?? [])])
              expect(matching(names, [part]), `"${part}" names no requirement of ${answer.lab}`).not.toEqual(
                [],
              );
            for (const part of named)
              expect(
                matching(failedNames, [part]),
                `"${part}" passed on this wrong answer:\n${why}`,
              ).not.toEqual([]);
            const unlisted = failedNames.filter(
              (n) =>
                !skipped.has(n) && matching([n], [...named, ...(answer.meta.alsoFails ?? [])]).length === 0,
            );
            expect(
              unlisted,
              `requirements that also fail (list them in alsoFails):\n${unlisted.join("\n")}\n${why}`,
            ).toEqual([]);
          }
          ok = true;
        } finally {
          outcomes.push({
            lab: answer.meta.track === "go" ? `${answer.lab}/go` : answer.lab,
            name: answer.name,
            kind: answer.meta.kind,
            ok,
            seconds: (Date.now() - started) / 1000,
          });
          rmSync(labsDir, { recursive: true, force: true });
        }
      },
      180_000,
    );
  });
}
