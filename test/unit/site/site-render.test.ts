import { describe, expect, it } from "vitest";
import { highlight } from "../../../src/workbook/site/code.js";
import { escapeHtml, stripAnsi } from "../../../src/workbook/site/html.js";
import { renderMarkdown } from "../../../src/workbook/site/markdown.js";
import { notebookBody } from "../../../src/workbook/site/notebook-html.js";
import { FOLD_LINES, renderOutput } from "../../../src/workbook/site/outputs.js";
import { pageOf, rewriteLink, toRoot } from "../../../src/workbook/site/site-map.js";

const AT = { repoFile: "notebooks/03-queue.ipynb", sitePage: "notebooks/03-queue.html" };

describe("site map", () => {
  it("gives notebooks, labs and READMEs pages, and nothing else", () => {
    expect(pageOf("notebooks/03-queue.ipynb")).toBe("notebooks/03-queue.html");
    expect(pageOf("labs/03-queue/README.md")).toBe("labs/03-queue.html");
    expect(pageOf("labs/README.md")).toBe("labs/index.html");
    expect(pageOf("src/workqueue/queue.ts")).toBeUndefined();
    expect(toRoot("notebooks/a.html")).toBe("../");
    expect(toRoot("index.html")).toBe("");
  });

  it("rewrites links to pages, keeps external ones and anchors, and names other repository files", () => {
    expect(rewriteLink(AT.repoFile, AT.sitePage, "04-reconcile.ipynb#checks")).toEqual({
      href: "04-reconcile.html#checks",
    });
    expect(rewriteLink(AT.repoFile, AT.sitePage, "../labs/03-queue/")).toEqual({
      href: "../labs/03-queue.html",
    });
    expect(rewriteLink(AT.repoFile, AT.sitePage, "https://kubernetes.io/docs/")).toEqual({
      href: "https://kubernetes.io/docs/",
    });
    expect(rewriteLink(AT.repoFile, AT.sitePage, "#top")).toEqual({ href: "#top" });
    expect(rewriteLink(AT.repoFile, AT.sitePage, "../src/workqueue/queue.ts")).toEqual({
      repoFile: "src/workqueue/queue.ts",
    });
  });
});

describe("markdown", () => {
  it("leaves mermaid to the page, escaped, and highlights code at build time", () => {
    const html = renderMarkdown(
      '```mermaid\nflowchart LR\n  a -->|"x<y"| b\n```\n\n```ts\nconst a = 1;\n```\n',
      AT,
    );
    expect(html).toContain('<pre class="mermaid">flowchart LR\n  a --&gt;|&quot;x&lt;y&quot;| b</pre>');
    expect(html).toContain(
      '<pre class="code"><code class="hljs language-ts"><span class="hljs-keyword">const</span>',
    );
  });

  it("keeps answers folded and rewrites links, naming source files instead of linking them", () => {
    const html = renderMarkdown(
      "<details><summary>Answer</summary>\n\nBecause **keys**.\n\n</details>\n\n[queue](../src/workqueue/queue.ts) and [next](04-x.ipynb)",
      AT,
    );
    expect(html).toContain("<details><summary>Answer</summary>");
    expect(html).toContain("<p>Because <strong>keys</strong>.</p>");
    expect(html).toContain(
      '<a class="repo-file" title="in the repository: src/workqueue/queue.ts">queue</a>',
    );
    expect(html).toContain('<a href="04-x.html">next</a>');
  });

  it("escapes text and removes terminal colours; unknown languages are escaped, not highlighted", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(stripAnsi("\u001b[31mError\u001b[0m: boom")).toBe("Error: boom");
    expect(highlight("<x>", "klingon")).toBe("&lt;x&gt;");
  });
});

describe("outputs", () => {
  it("shows mermaid for the page to draw, markdown rendered, and streams as text", () => {
    expect(
      renderOutput(
        {
          output_type: "display_data",
          data: { "text/vnd.mermaid": "flowchart LR\n a-->b", "text/plain": "x" },
        },
        AT,
      ),
    ).toBe('<pre class="mermaid">flowchart LR\n a--&gt;b</pre>');
    expect(
      renderOutput({ output_type: "display_data", data: { "text/markdown": "✅ check passed: **x**" } }, AT),
    ).toContain("<strong>x</strong>");
    expect(renderOutput({ output_type: "stream", name: "stderr", text: ["a\n", "b\n"] }, AT)).toBe(
      '<pre class="output stderr">a\nb</pre>',
    );
  });

  it("marks errors, without terminal colours, and folds long text", () => {
    const error = renderOutput(
      {
        output_type: "error",
        ename: "Error",
        evalue: "boom",
        traceback: ["\u001b[31mError: boom\u001b[0m", "  at cell"],
      },
      AT,
    );
    expect(error).toBe('<pre class="output error">Error: boom\n  at cell</pre>');
    const long = renderOutput(
      { output_type: "stream", name: "stdout", text: "line\n".repeat(FOLD_LINES + 1) },
      AT,
    );
    expect(long).toMatch(/^<details class="long-output"><summary>41 lines of output<\/summary><pre/);
  });

  it("a notebook page shows prompts, highlighted code, outputs and the pager", () => {
    const info = {
      name: "03-queue",
      title: "03 · Q",
      summary: "",
      minutes: 10,
      estimated: false,
      topics: ["workqueue"],
    };
    const body = notebookBody(
      info,
      {
        cells: [
          {
            cell_type: "code",
            source: "let x = 1;",
            execution_count: 2,
            outputs: [{ output_type: "stream", name: "stdout", text: "1\n" }],
          },
        ],
      },
      { next: { ...info, name: "04-next", title: "04 · Next" } },
    );
    expect(body).toContain('<span class="badge">10 min</span><span class="badge">workqueue</span>');
    expect(body).toContain(
      '<div class="prompt">[2]</div><pre class="code"><code class="hljs language-typescript"><span class="hljs-keyword">let</span>',
    );
    expect(body).toContain('<div class="outputs"><pre class="output stdout">1</pre></div>');
    expect(body).toContain('<span></span><a rel="next" href="04-next.html">04 · Next</a>');
  });
});
