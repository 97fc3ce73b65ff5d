import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSite } from "../../../src/workbook/site/build.js";
import { learningPathDiagram } from "../../../src/workbook/site/learning-path.js";
import { estimateMinutes, notebookInfo } from "../../../src/workbook/site/notebook-info.js";
import type { NotebookJson } from "../../../src/workbook/site/notebook-json.js";
import { renderPage } from "../../../src/workbook/site/page.js";
import { questionsBody } from "../../../src/workbook/site/question-page.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

const NOTEBOOK: NotebookJson = {
  metadata: {},
  cells: [
    {
      cell_type: "markdown",
      source:
        "# 03 · A queue of keys\n\n| a | b |\n|---|---|\n\nWe build a **queue** that [dedups](x.md) keys.\n\nMore.",
    },
    {
      cell_type: "code",
      source: "checks.summary();",
      execution_count: 4,
      outputs: [
        { output_type: "display_data", data: { "text/markdown": "### 5/6 checks passed: 1 failed" } },
      ],
    },
  ],
};

const QUESTION = {
  id: "03-dedup",
  question: "Why keys, not objects?",
  answer: "Because the worker reads **the latest** state.",
  topic: "workqueue" as const,
  notebook: "03-queue",
  section: "2. Dedup",
  difficulty: "basic" as const,
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "workbook-site-unit-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("what the index says about a notebook", () => {
  it("reads the title, the first paragraph as plain text, the checks, and topics from the questions", () => {
    const info = notebookInfo("03-queue", NOTEBOOK, ["workqueue", "workqueue"]);
    expect(info).toMatchObject({
      title: "03 · A queue of keys",
      summary: "We build a queue that dedups keys.",
      topics: ["workqueue"],
      checks: { passed: 5, total: 6 },
      estimated: true,
    });
  });

  it("takes minutes and topics from the author's metadata when set", () => {
    const nb = { ...NOTEBOOK, metadata: { "kube-controller-workbook": { minutes: 25, topics: ["cache"] } } };
    expect(notebookInfo("03-queue", nb, ["workqueue"])).toMatchObject({
      minutes: 25,
      topics: ["cache"],
      estimated: false,
    });
  });

  it("estimates minutes from prose and code, in steps of 5, at least 5", () => {
    expect(estimateMinutes(NOTEBOOK)).toBe(5);
    const long: NotebookJson = {
      cells: [
        { cell_type: "markdown", source: "word ".repeat(1800) },
        ...Array.from({ length: 12 }, () => ({ cell_type: "code" as const, source: "x" })),
      ],
    };
    expect(estimateMinutes(long)).toBe(25);
  });
});

describe("the learning path", () => {
  const infos = Array.from({ length: 9 }, (_, i) => ({
    name: `0${i}-n`,
    title: `0${i} · Notebook ${i}`,
    summary: "",
    minutes: 20,
    estimated: true,
    topics: [],
  }));

  it("draws rows of four, left to right, linked top to bottom, starting at the first notebook", async () => {
    const src = learningPathDiagram(infos);
    expect(src.match(/subgraph row\d/g)).toHaveLength(3);
    expect(src).toContain("nb0 --> nb1 --> nb2 --> nb3");
    expect(src).toContain("row0 --> row1 --> row2");
    expect(src).toContain('nb8["08<br/>Notebook 8<br/>20 min"]');
    expect(src).toContain("class nb0 focus");
    expect(await mermaidParseError(src)).toBeUndefined();
  });
});

describe("pages", () => {
  it("frame every page with the site's own styles and scripts, relative to the page's folder", () => {
    const html = renderPage({ path: "notebooks/a.html", title: "A <b>", body: "<p>x</p>" });
    expect(html).toContain("<title>A &lt;b&gt; · kube-controller-workbook</title>");
    expect(html).toContain('<script src="../assets/mermaid.min.js"></script>');
    expect(html).toContain('<link rel="icon" href="data:,">');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("fold model answers on the question page and link each group to its notebook", () => {
    const html = questionsBody([QUESTION], new Map([["03-queue", "03 · A queue of keys"]]));
    expect(html).toContain(
      '<h2 id="03-queue"><a href="notebooks/03-queue.html">03 · A queue of keys</a></h2>',
    );
    expect(html).toContain(
      "<details><summary>Model answer</summary><p>Because the worker reads <strong>the latest</strong>",
    );
    expect(questionsBody([], new Map())).toContain("No questions in the bank yet.");
  });
});

describe("buildSite", () => {
  function checkout(): { root: string; notebook: string } {
    const root = join(dir, "repo");
    mkdirSync(join(root, "labs", "03-queue"), { recursive: true });
    mkdirSync(join(root, "notebooks"), { recursive: true });
    writeFileSync(join(root, "labs", "README.md"), "# Labs\n\nSee [the queue lab](03-queue/README.md).\n");
    writeFileSync(
      join(root, "labs", "03-queue", "README.md"),
      "# Lab 03: a queue\n\nRead [the notebook](../../notebooks/03-queue.ipynb).\n",
    );
    const notebook = join(root, "notebooks", "03-queue.ipynb");
    writeFileSync(notebook, JSON.stringify(NOTEBOOK));
    return { root, notebook };
  }

  it("writes the index, a page per notebook and lab, the questions, and the assets", () => {
    const { root, notebook } = checkout();
    const out = join(dir, "site");
    const { pages } = buildSite({ root, notebooks: [notebook], questions: [QUESTION], out });
    expect(pages.sort()).toEqual(
      [
        "index.html",
        "labs/03-queue.html",
        "labs/index.html",
        "notebooks/03-queue.html",
        "questions.html",
      ].sort(),
    );
    const lab = readFileSync(join(out, "labs", "03-queue.html"), "utf8");
    expect(lab).toContain('<a href="../notebooks/03-queue.html">the notebook</a>');
    expect(readFileSync(join(out, "labs", "index.html"), "utf8")).toContain(
      '<a href="03-queue.html">the queue lab</a>',
    );
    const index = readFileSync(join(out, "index.html"), "utf8");
    expect(index).toContain('<pre class="mermaid">flowchart TB');
    expect(index).toContain('<span class="badge bad">5/6 checks</span>');
    for (const asset of [
      "site.css",
      "site.js",
      "mermaid.min.js",
      "highlight-light.css",
      "highlight-dark.css",
    ]) {
      expect(readFileSync(join(out, "assets", asset), "utf8").length).toBeGreaterThan(100);
    }
    // A second build replaces the first.
    expect(buildSite({ root, notebooks: [notebook], questions: [], out }).pages).toHaveLength(5);
  });

  it("refuses to empty a folder that holds something other than an earlier build", () => {
    const { root, notebook } = checkout();
    const out = join(dir, "precious");
    mkdirSync(out);
    writeFileSync(join(out, "thesis.tex"), "");
    expect(() => buildSite({ root, notebooks: [notebook], questions: [], out })).toThrow(/not empty/);
  });
});
