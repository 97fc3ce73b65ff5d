import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../src/apimachinery/wait/random.js";
import {
  formatInterviewSummary,
  gradeInterviewAnswer,
  loadProgress,
  pickInterview,
  QUESTION_BANK,
  QUESTIONS_PER_OUTPUT,
  type Question,
  QuizDeck,
  recordAnswer,
  renderAnswerReview,
  renderQuestions,
  renderTryIt,
  saveProgress,
  scoreAnswer,
  selectQuestions,
  showAnswerReview,
  showQuestions,
  shuffled,
} from "../../../src/workbook/questions/index.js";

function question(id: string, topic: Question["topic"] = "watch"): Question {
  return {
    id,
    topic,
    notebook: `${id.slice(0, 2)}-demo`,
    section: "1. Demo",
    difficulty: "basic",
    question: `question ${id}?`,
    answer: `answer ${id}`,
    keyPoints: [
      { point: "watch from the list's version", terms: ["resourceVersion", "watch from"] },
      { point: "no events are missed", terms: ["miss", "gap"] },
    ],
  };
}

describe("QuizDeck", () => {
  it("asks every question once per round and repeats the unknown ones until none are left", () => {
    const deck = new QuizDeck(
      ["01-a", "01-b", "01-c"].map((id) => question(id)),
      seededRandom(1),
    );
    const asked: string[] = [];
    const unknownOnce = new Set(["01-b", "01-c"]);
    for (let q = deck.next(); q; q = deck.next()) {
      asked.push(`${deck.round}:${q.id}`);
      const known = !unknownOnce.delete(q.id) || q.id === "01-c";
      deck.mark(known);
    }
    expect(asked.filter((a) => a.startsWith("1:")).sort()).toEqual(["1:01-a", "1:01-b", "1:01-c"]);
    expect(asked.filter((a) => a.startsWith("2:"))).toEqual(["2:01-b"]);
    expect(deck.left).toBe(0);
  });

  it("refuses to hand out a question before the previous one is marked", () => {
    const deck = new QuizDeck([question("01-a"), question("01-b")]);
    deck.next();
    expect(() => deck.next()).toThrow(/mark the current question/);
  });

  it("shuffles deterministically from a seed and keeps every item", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const a = shuffled(items, seededRandom(7));
    expect(a).toEqual(shuffled(items, seededRandom(7)));
    expect(a).not.toEqual(items);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
  });
});

describe("progress file", () => {
  it("round-trips, counts answers, and treats a missing or corrupt file as a fresh start", () => {
    const dir = mkdtempSync(join(tmpdir(), "workbook-quiz-"));
    try {
      const file = join(dir, "nested", "progress.json");
      expect(loadProgress(file)).toEqual({ progress: { version: 1, questions: {} } });
      const { progress } = loadProgress(file);
      recordAnswer(progress, "00-a", false, new Date(0));
      recordAnswer(progress, "00-a", true, new Date(1000));
      saveProgress(file, progress);
      expect(loadProgress(file).progress.questions["00-a"]).toEqual({
        known: true,
        asked: 2,
        last: "1970-01-01T00:00:01.000Z",
      });
      writeFileSync(file, "{not json");
      const broken = loadProgress(file);
      expect(broken.progress.questions).toEqual({});
      expect(broken.problem).toMatch(/starting fresh/);
      expect(readFileSync(file, "utf8")).toBe("{not json");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("key points and the mock interview", () => {
  it("counts a key point when any of its terms appears, ignoring case and punctuation", () => {
    const q = question("01-a");
    expect(
      scoreAnswer(q, "The informer uses the RESOURCE-version... no, resourceVersion!").covered.length,
    ).toBe(1);
    const both = scoreAnswer(q, "Watch from the list so there is no gap.");
    expect(both.ratio).toBe(1);
    const none = scoreAnswer(q, "It polls.");
    expect(none.missed.map((k) => k.point)).toEqual([
      "watch from the list's version",
      "no events are missed",
    ]);
    expect(none.ratio).toBe(0);
  });

  it("picks questions with topics mixed: no topic repeats before each has had one", () => {
    const pool = [
      question("01-a", "watch"),
      question("01-b", "watch"),
      question("01-c", "watch"),
      question("02-a", "cache"),
      question("04-a", "workqueue"),
    ];
    const picked = pickInterview(pool, 4, seededRandom(3));
    expect(picked).toHaveLength(4);
    expect(new Set(picked.slice(0, 3).map((q) => q.topic)).size).toBe(3);
    expect(pickInterview(pool, 50, seededRandom(3))).toHaveLength(5);
    expect(() => pickInterview(pool, 0)).toThrow(/at least 1/);
  });

  it("summarises with what to review, by notebook and section", () => {
    const good = gradeInterviewAnswer(question("01-a"), "watch from the list: no gap", 30, 60);
    const weak = gradeInterviewAnswer(question("02-b", "cache"), "no idea", 10, 60);
    const slow = gradeInterviewAnswer(question("01-c"), "watch from the list: no gap", 90, 60);
    const text = formatInterviewSummary([good, weak, slow], 60);
    expect(text).toContain(
      [
        "1. 01-a: 2/2 key points, 30 s",
        "2. 02-b: 0/2 key points, 10 s",
        "     missed: watch from the list's version",
        "     missed: no events are missed",
        "3. 01-c: 2/2 key points, 90 s (over the 60 s budget)",
        "key points covered: 4/6",
        "review:",
        "  notebooks/02-demo.ipynb",
        "    section 1. Demo: 02-b (cache)",
        "  notebooks/01-demo.ipynb",
        "    section 1. Demo: 01-c (watch)",
      ].join("\n"),
    );
    expect(text).not.toContain("01-a (watch)");
    expect(formatInterviewSummary([good], 60)).toContain("nothing to review");
  });
});

describe("selecting and rendering", () => {
  it("selects by notebook name or number, section title or number, topic and ids", () => {
    const all = selectQuestions({ notebook: "00-cluster" });
    expect(all.length).toBeGreaterThan(0);
    expect(selectQuestions({ notebook: "0" })).toEqual(all);
    const section2 = selectQuestions({ notebook: "00-cluster", section: "2" });
    expect(section2.length).toBeGreaterThan(0);
    expect(section2.every((q) => q.section.startsWith("2."))).toBe(true);
    expect(selectQuestions({ section: section2[0]!.section })).toEqual(section2);
    expect(selectQuestions({ ids: ["00-resource-version"] }).map((q) => q.id)).toEqual([
      "00-resource-version",
    ]);
    expect(selectQuestions({ topic: "watch" }).every((q) => q.topic === "watch")).toBe(true);
    expect(selectQuestions({ notebook: "7" }, QUESTION_BANK.slice(0, 1))).toEqual([]);
  });

  it("renders each question with a marker and its answer folded in <details>", () => {
    const md = renderQuestions([question("01-a")]);
    expect(md).toContain("<!-- question: 01-a -->\n**Q1. question 01-a?** _(basic · watch)_");
    expect(md).toMatch(/<details><summary>[^<]+<\/summary>\n\nanswer 01-a\n/);
    expect(md).toContain("- no events are missed");
    expect(md).toContain("_Shown in: [01-demo, section 1. Demo](01-demo.ipynb#1.-Demo)._");
    expect(md.indexOf("answer 01-a")).toBeGreaterThan(md.indexOf("<details>"));
    expect(md.indexOf("answer 01-a")).toBeLessThan(md.indexOf("</details>"));
    const two = renderQuestions([question("01-a"), question("01-b")]);
    expect(two).toMatch(/<\/details>\n\n---\n\n<!-- question: 01-b -->/);
  });

  it("showQuestions splits a long list into outputs of a few questions, numbered on", () => {
    const out: string[] = [];
    showQuestions("00-cluster", { display: null, write: (t) => out.push(t) });
    const all = selectQuestions({ notebook: "00-cluster" });
    expect(all.length).toBeGreaterThan(QUESTIONS_PER_OUTPUT);
    expect(out.length).toBe(Math.ceil(all.length / QUESTIONS_PER_OUTPUT));
    expect(out[0]).toMatch(/^### Questions\n/);
    expect(out[1]).not.toContain("### Questions");
    expect(out[1]).toMatch(/^---\n\n<!-- question: /);
    expect(out[1]).toContain(`**Q${QUESTIONS_PER_OUTPUT + 1}. `);
    for (const q of all) expect(out.join("")).toContain(`<!-- question: ${q.id} -->`);
  });

  it("showQuestions prints the selection and refuses an empty one", () => {
    const out: string[] = [];
    showQuestions("00-cluster", { section: "3", display: null, write: (t) => out.push(t) });
    const shown = selectQuestions({ notebook: "00-cluster", section: "3" });
    expect(shown.length).toBeGreaterThan(0);
    for (const q of shown) expect(out.join("")).toContain(`<!-- question: ${q.id} -->`);
    expect(() => showQuestions("00-cluster", { section: "42", display: null })).toThrow(
      /no questions for 00-cluster section "42"/,
    );
  });

  it("renders try-it-yourself prompts naming the cell, the change and what to watch", () => {
    expect(renderTryIt([{ cell: "section 2", change: "create ten", watch: "the list version" }])).toBe(
      "### Try it yourself\n\n1. **In section 2:** create ten. **Watch:** the list version\n",
    );
  });
});

describe("reviewing a typed answer in a notebook", () => {
  it("lists the key points made and missed, folds the model answer, and names the section to review", () => {
    const md = renderAnswerReview(question("01-a"), "you watch from the list's resourceVersion");
    expect(md).toContain(
      "You made 1 of 2 key points.\n\n- ✅ watch from the list's version\n- ❌ no events are missed",
    );
    expect(md).toContain("<details><summary>Model answer</summary>\n\nanswer 01-a\n\n</details>");
    expect(md).toContain("Review: [01-demo, section 1. Demo](01-demo.ipynb#1.-Demo).");
    expect(renderAnswerReview(question("01-a"), "watch from the list, no gap")).not.toContain("Review:");
    const out: string[] = [];
    showAnswerReview("00-status-errors", "404 NotFound", { display: null, write: (t) => out.push(t) });
    expect(out.join("")).toMatch(/You made \d of 4 key points/);
    expect(() => showAnswerReview("00-nope", "x", { display: null })).toThrow(/no question "00-nope"/);
  });
});
