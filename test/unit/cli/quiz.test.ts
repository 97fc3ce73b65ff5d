import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseQuizArgs, runQuiz } from "../../../src/tools/cli/quiz.js";
import { projectRoot } from "../../../src/tools/cli/workbook-paths.js";
import { QUESTION_BANK, selectQuestions } from "../../../src/workbook/questions/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "workbook-quiz-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the quiz with `lines` as its input (then end of input) and returns the exit code and all output. */
async function quiz(args: string[], lines: string[], now?: () => number) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk) => {
    text += chunk;
  });
  input.end(lines.map((l) => `${l}\n`).join(""));
  const io = { input, output, progressFile: join(dir, "progress.json"), ...(now ? { now } : {}) };
  const code = await runQuiz(args, io);
  return { code, text };
}

const cluster = selectQuestions({ notebook: "00-cluster" });

describe("workbook quiz", () => {
  it("asks every question, repeats the unknown one, and remembers what is known", async () => {
    const n = cluster.length;
    // First question unknown, then everything known: n + 1 questions asked in all.
    const answers = ["", "n", ...Array.from({ length: n }, () => ["", "y"]).flat()];
    const { code, text } = await quiz(["--notebook", "00-cluster", "--seed", "1"], answers);
    expect(code).toBe(0);
    expect(text).toContain(`quiz: ${n} questions (0 already known)`);
    expect(text.match(/did you know it\?/g)).toHaveLength(n + 1);
    expect(text).toContain("[round 2, 1 left]");
    expect(text).toContain("quiz: done, every question known");
    const saved = JSON.parse(readFileSync(join(dir, "progress.json"), "utf8"));
    expect(Object.keys(saved.questions).sort()).toEqual(cluster.map((q) => q.id).sort());
    const again = await quiz(["--notebook", "00-cluster"], []);
    expect(again.text).toContain(`all ${n} selected questions are marked known`);
    const all = await quiz(["--notebook", "00-cluster", "--all"], ["q"]);
    expect(all.text).toContain(`quiz: ${n} questions;`);
    expect(all.text).toContain(`stopped with ${n} not yet known`);
    const reset = await quiz(["--notebook", "00-cluster", "--reset"], ["q"]);
    expect(reset.text).toContain(`quiz: ${n} questions (0 already known)`);
    expect(JSON.parse(readFileSync(join(dir, "progress.json"), "utf8")).questions).toEqual({});
  });

  it("shows the model answer on Enter, re-asks a bad mark, and saves progress when input ends", async () => {
    const { code, text } = await quiz(["--notebook", "00-cluster", "--seed", "2"], ["", "maybe", "y"]);
    expect(code).toBe(0);
    expect(text).toContain("please answer y, n or q");
    expect(text).toContain("key points:\n  - ");
    expect(text).toMatch(/see: notebooks\/00-cluster\.ipynb, section \d+\./);
    expect(text).toContain(`stopped with ${cluster.length - 1} not yet known`);
    const saved = JSON.parse(readFileSync(join(dir, "progress.json"), "utf8"));
    expect(Object.values(saved.questions)).toEqual([expect.objectContaining({ known: true, asked: 1 })]);
  });

  it("--list and --read print without reading any input", async () => {
    const list = await quiz(["--list", "--topic", "api-basics"], []);
    const apiBasics = QUESTION_BANK.filter((q) => q.topic === "api-basics");
    expect(list.code).toBe(0);
    expect(list.text).toContain(`${apiBasics.length} questions`);
    for (const q of apiBasics) expect(list.text).toContain(q.id);
    const read = await quiz(["--read", "--notebook", "0"], []);
    for (const q of cluster) {
      expect(read.text).toContain(q.question);
      expect(read.text).toContain(q.answer.trim().split("\n")[0]!);
    }
  });

  it("--interview: typed answers are compared with the key points, timed, and summarised with review links", async () => {
    let t = 0;
    const now = () => {
      t += 45_000; // every read of the clock moves 45 s on: each answer takes 45 s
      return t;
    };
    const lines = ["no idea", "", "", ""];
    const { code, text } = await quiz(["--interview", "2", "--seconds", "30", "--seed", "5"], lines, now);
    expect(code).toBe(0);
    expect(text).toContain("interview: 2 questions, about 30 s each");
    expect(text).toMatch(/you covered 0\/\d key points in 45 s \(over time\)/);
    expect(text).toContain("model answer:");
    expect(text).toContain("== interview summary ==");
    expect(text).toMatch(/review:\n {2}notebooks\/\d\d-[a-z0-9-]+\.ipynb\n {4}section \d+\. /);
  });

  it("--interview N through the real CLI with piped input: N questions, mixed topics, a review list", () => {
    const root = projectRoot();
    const run = spawnSync(
      process.execPath,
      [join(root, "dist", "tools", "cli", "main.js"), "quiz", "--interview", "3", "--seed", "21"],
      { encoding: "utf8", input: ["a watch", "", "", "a cache", ""].join("\n"), timeout: 30_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const asked = [...run.stdout.matchAll(/^\[(\d)\/3\] (\S+) · (\S+) · (\S+)$/gm)];
    expect(asked.map((m) => m[1])).toEqual(["1", "2", "3"]);
    expect(new Set(asked.map((m) => m[3])).size, "three different topics").toBe(3);
    expect(run.stdout).toContain("== interview summary ==");
    for (const m of asked) expect(run.stdout).toMatch(new RegExp(`\\d\\. ${m[2]}: \\d+/\\d+ key points`));
    expect(run.stdout).toMatch(/review:\n {2}notebooks\/\d\d-[a-z0-9-]+\.ipynb\n {4}section \d+\. /);
  });

  it("an answer that names the key points is credited", async () => {
    // One answer naming a term of every key point in the bank covers whichever question is asked.
    const answer = QUESTION_BANK.flatMap((q) => q.keyPoints.map((k) => k.terms[0])).join("; ");
    const { text } = await quiz(["--interview", "1", "--seed", "9"], [answer, ""]);
    const covered = /you covered (\d+)\/(\d+) key points/.exec(text);
    expect(covered?.[1]).toBe(covered?.[2]);
    expect(text).toContain("nothing to review");
  });

  it("rejects bad flags and values with usage errors (exit 2 from the CLI)", () => {
    expect(() => parseQuizArgs(["--bogus"])).toThrow(/Unknown option '--bogus'/);
    expect(() => parseQuizArgs(["--topic", "nope"])).toThrow(/unknown topic "nope"; topics: api-basics/);
    expect(() => parseQuizArgs(["--interview", "0"])).toThrow(/--interview needs a whole number >= 1/);
    expect(() => parseQuizArgs(["--list", "--read"])).toThrow(/choose one of/);
    expect(() => parseQuizArgs(["--notebook", "42"])).toThrow(
      /no questions for notebook "42"; notebooks: 00-cluster/,
    );
    expect(() => parseQuizArgs(["--difficulty", "easy"])).toThrow(/use basic, intermediate, advanced/);
    const root = projectRoot();
    const run = spawnSync(
      process.execPath,
      [join(root, "dist", "tools", "cli", "main.js"), "quiz", "--topic", "nope"],
      {
        encoding: "utf8",
        input: "",
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown topic "nope"');
    expect(run.stderr).toContain("run `workbook quiz --help` for usage");
  });
});
