import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../../src/tools/cli/workbook-paths.js";
import {
  liveDisplay,
  MERMAID_MIME,
  type RichDisplay,
  showMarkdown,
  showMermaid,
  tslabDisplay,
} from "../../../src/workbook/viz/index.js";

function recorder(fail = false) {
  const sent: Array<[string, string]> = [];
  const display: RichDisplay = {
    raw(contentType, data) {
      if (fail) throw new Error("Not ready");
      sent.push([contentType, data]);
    },
  };
  const written: string[] = [];
  return { sent, display, written, write: (t: string) => written.push(t) };
}

const SRC = "flowchart LR\n  a --> b";

describe("showMermaid / showMarkdown", () => {
  afterEach(() => {
    delete process.env.WORKBOOK_MERMAID;
  });

  it("sends text/vnd.mermaid to a rich display", () => {
    const r = recorder();
    showMermaid(SRC, { display: r.display, write: r.write });
    expect(r.sent).toEqual([[MERMAID_MIME, SRC]]);
    expect(r.written).toEqual([]);
  });

  it("sends a fenced markdown block when asked, or when WORKBOOK_MERMAID=markdown", () => {
    const r = recorder();
    showMermaid(SRC, { display: r.display, as: "markdown" });
    process.env.WORKBOOK_MERMAID = "markdown";
    showMermaid(SRC, { display: r.display });
    const fence = `\`\`\`mermaid\n${SRC}\n\`\`\``;
    expect(r.sent).toEqual([
      ["text/markdown", fence],
      ["text/markdown", fence],
    ]);
  });

  it("prints the fenced block without a display, or when the display refuses", () => {
    const none = recorder();
    showMermaid(SRC, { display: null, write: none.write });
    const refusing = recorder(true);
    showMermaid(SRC, { display: refusing.display, write: refusing.write });
    showMarkdown("| a |", { display: refusing.display, write: refusing.write });
    expect(none.written).toEqual([`\`\`\`mermaid\n${SRC}\n\`\`\``]);
    expect(refusing.written).toEqual([`\`\`\`mermaid\n${SRC}\n\`\`\``, "| a |"]);
  });

  it("sends markdown as text/markdown", () => {
    const r = recorder();
    showMarkdown("**bold**", { display: r.display });
    expect(r.sent).toEqual([["text/markdown", "**bold**"]]);
  });
});

describe("liveDisplay", () => {
  it("sends every update to the one area it was given", () => {
    const r = recorder();
    const live = liveDisplay({ display: r.display, write: r.write });
    live.markdown("depth 1");
    live.mermaid(SRC);
    expect(r.sent).toEqual([
      ["text/markdown", "depth 1"],
      [MERMAID_MIME, SRC],
    ]);
  });

  it("prints each update outside a kernel", () => {
    const r = recorder();
    const live = liveDisplay({ write: r.write });
    live.markdown("depth 2");
    expect(r.written).toEqual(["depth 2"]);
  });
});

describe("tslabDisplay", () => {
  it("is absent outside a tslab kernel (this test process)", () => {
    expect(tslabDisplay()).toBeUndefined();
    expect(tslabDisplay(["node", "/x/tslab/bin/tslab", "install"])).toBeUndefined();
  });

  it("loads the kernel's own tslab when the process is `tslab kernel`", () => {
    const bin = join(projectRoot(), "node_modules", "tslab", "bin", "tslab");
    const display = tslabDisplay(["node", bin, "kernel", "--config-path", "x.json"]);
    expect(typeof display?.raw).toBe("function");
    // Not inside a cell execution: tslab refuses, which showMermaid turns into the text fallback.
    expect(() => display!.raw("text/plain", "x")).toThrow(/Not ready/);
  });
});
