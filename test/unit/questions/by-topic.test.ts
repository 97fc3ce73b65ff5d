import { describe, expect, it } from "vitest";
import {
  countByNotebook,
  countByTopic,
  QUESTION_BANK,
  type Question,
  renderBankByTopic,
  renderedSectionTitle,
  sectionLink,
  showBankByTopic,
} from "../../../src/workbook/questions/index.js";

function question(id: string, topic: Question["topic"], difficulty: Question["difficulty"]): Question {
  return {
    id,
    topic,
    difficulty,
    notebook: `${id.slice(0, 2)}-demo`,
    section: "2. A section",
    question: `question ${id}?`,
    answer: `answer ${id}`,
    keyPoints: [{ point: "a point", terms: ["point"] }],
  };
}

const sample = [
  question("04-b", "workqueue", "advanced"),
  question("01-a", "watch", "basic"),
  question("04-a", "workqueue", "basic"),
  question("02-a", "workqueue", "intermediate"),
];

describe("the bank by topic", () => {
  it("counts each topic's questions by difficulty, in TOPICS order, skipping empty topics", () => {
    expect(countByTopic(sample)).toEqual([
      { topic: "watch", basic: 1, intermediate: 0, advanced: 0, total: 1, notebooks: ["01-demo"] },
      {
        topic: "workqueue",
        basic: 1,
        intermediate: 1,
        advanced: 1,
        total: 3,
        notebooks: ["04-demo", "02-demo"],
      },
    ]);
  });

  it("counts questions per notebook in bank order", () => {
    expect(countByNotebook(sample)).toEqual([
      ["04-demo", 2],
      ["01-demo", 1],
      ["02-demo", 1],
    ]);
  });

  it("folds each topic, lists its questions easiest first with a link to the section, and no answers", () => {
    const md = renderBankByTopic(sample);
    expect(md.match(/<details>/g)?.length).toBe(2);
    expect(md.match(/<\/details>/g)?.length).toBe(2);
    expect(md).toContain("<b>workqueue</b>");
    expect(md).toContain("(3: 1 basic, 1 intermediate, 1 advanced)");
    const order = ["question 04-a?", "question 02-a?", "question 04-b?"].map((q) => md.indexOf(q));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(md).toContain("[04-demo, section 2. A section](04-demo.ipynb#2.-A-section)");
    expect(md).not.toContain("answer 04-a");
  });

  it("covers the whole bank: every question appears once, under its topic", () => {
    const md = renderBankByTopic();
    for (const q of QUESTION_BANK) expect(md.split(q.question).length - 1, q.id).toBe(1);
    const total = countByTopic().reduce((n, r) => n + r.total, 0);
    expect(total).toBe(QUESTION_BANK.length);
  });

  it("shows through the display helpers (plain text without a kernel)", () => {
    let text = "";
    showBankByTopic(sample, { display: null, write: (t) => (text += t) });
    expect(text).toContain("<b>watch</b>");
  });

  it("links to a section by its rendered title: inline code and bold markers are not in the anchor", () => {
    expect(renderedSectionTitle("4. Foreground deletion and `blockOwnerDeletion`")).toBe(
      "4. Foreground deletion and blockOwnerDeletion",
    );
    expect(renderedSectionTitle("2. The **real** one ")).toBe("2. The real one");
    const q = { ...question("08-x", "deletion", "basic"), section: "4. Use `finalizer()`" };
    expect(sectionLink(q)).toBe("[08-demo, section 4. Use `finalizer()`](08-demo.ipynb#4.-Use-finalizer())");
  });
});
