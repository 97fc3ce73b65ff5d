/**
 * A wrong answer of the wrong-answer suite (test/labs/wrong-answers.test.ts) is `answer.patch`, a unified diff on
 * the reference solution of its lab. These helpers turn it into the files it changes; the fast tier checks that
 * every patch still applies (test/unit/grading/wrong-answer-patches.test.ts), so a solution edited under an answer
 * is caught in `npm test`, not an hour later in the full tier.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyHunks, parseUnifiedDiff } from "./unified-diff.js";

/** The files `<answerDir>/answer.patch` changes, each with its patched text (relative path -> text). */
export function patchedFiles(answerDir: string, solutionDir: string): Map<string, string> {
  const patchFile = join(answerDir, "answer.patch");
  if (!existsSync(patchFile)) throw new Error(`${answerDir}: no answer.patch`);
  const out = new Map<string, string>();
  for (const [file, hunks] of parseUnifiedDiff(readFileSync(patchFile, "utf8"))) {
    const original = join(solutionDir, file);
    if (!existsSync(original))
      throw new Error(`${answerDir}: answer.patch changes ${file}, not in ${solutionDir}`);
    if (hunks.length === 0)
      throw new Error(`${answerDir}: answer.patch names ${file} but changes nothing in it`);
    out.set(file, applyHunks(readFileSync(original, "utf8"), hunks, `${answerDir}/answer.patch on ${file}`));
  }
  if (out.size === 0) throw new Error(`${answerDir}: answer.patch changes no file`);
  return out;
}
