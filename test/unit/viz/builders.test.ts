import { describe, expect, it } from "vitest";
import {
  dataPathFlowchart,
  flowchart,
  markdownTable,
  mermaidFence,
  mermaidId,
  mermaidLabel,
  PALETTE,
  requestBarChart,
  requestLabel,
  SERIES_INKS,
  stateClassDef,
  xyChart,
} from "../../../src/workbook/viz/index.js";

describe("mermaid text rules", () => {
  it("makes ids from any text", () => {
    expect(mermaidId("kube-system/coredns")).toBe("kube_system_coredns");
    expect(mermaidId("1st")).toBe("n_1st");
    expect(mermaidId("")).toBe("n_");
    expect(mermaidId("end")).toBe("n_end");
    expect(mermaidId("End")).toBe("n_End");
    expect(mermaidId("endpoint")).toBe("endpoint");
  });

  it("quotes labels and escapes what would end them", () => {
    expect(mermaidLabel('say "hi" <b>\nnext')).toBe('"say #quot;hi#quot; #lt;b#gt;<br/>next"');
  });

  it("fences a diagram for markdown", () => {
    expect(mermaidFence("flowchart LR\n  a --> b\n\n")).toBe("```mermaid\nflowchart LR\n  a --> b\n```");
  });
});

describe("flowchart", () => {
  it("draws shapes, dashed and labelled edges, and highlights in the theme's focus colour", () => {
    const src = flowchart({
      nodes: [{ id: "q", label: "queue", shape: "store", highlight: true }, { id: "w" }],
      edges: [{ from: "q", to: "w", label: "key", dashed: true }],
    });
    expect(src.split("\n")).toEqual([
      "---",
      "config:",
      "  flowchart:",
      "    rankSpacing: 30",
      "    nodeSpacing: 25",
      "    padding: 8",
      "---",
      "flowchart LR",
      '  q[("queue")]',
      '  w["w"]',
      '  q -.->|"key"| w',
      `  ${stateClassDef("focus")}`,
      "  class q focus",
      "",
    ]);
  });

  it("colours nodes by state, one classDef per state used", () => {
    const src = flowchart({
      nodes: [
        { id: "a", state: "converged" },
        { id: "b", state: "error" },
        { id: "c", state: "converged" },
        { id: "d" },
      ],
      edges: [],
    });
    expect(src).toContain(`  ${stateClassDef("converged")}\n  class a,c converged\n`);
    expect(src).toContain(`  ${stateClassDef("error")}\n  class b error\n`);
    expect(src.match(/classDef/g)).toHaveLength(2);
  });

  it("rejects an edge to an undeclared node", () => {
    expect(() => flowchart({ nodes: [{ id: "a" }], edges: [{ from: "a", to: "typo" }] })).toThrow(
      /unknown node "typo"/,
    );
  });

  it("data path shows counts under stages and highlights the chosen ones", () => {
    const src = dataPathFlowchart({ highlight: ["Reflector"], counts: { RateLimitingQueue: 7 } });
    expect(src).toContain('RateLimitingQueue["RateLimiting<br/>Queue<br/>7"]');
    expect(src).toContain("class Reflector focus");
    expect(src).toContain("apiserver --> ListWatch");
    expect(src).toContain('SharedIndexInformer -->|"1. update"| Indexer');
    expect(src).toContain('Indexer -.->|"read"| Workers');
    expect(dataPathFlowchart()).not.toContain("classDef");
  });
});

describe("xyChart", () => {
  it("writes title, axes, range and every series", () => {
    const src = xyChart({
      title: "backoff",
      x: [1, 2, 3],
      xLabel: "attempt",
      yLabel: "ms",
      yRange: [0, 40],
      series: [{ kind: "line", values: [5, 10, 1 / 3] }],
    });
    expect(src.slice(src.indexOf("xychart-beta"))).toBe(
      'xychart-beta\n  title "backoff"\n  x-axis "attempt" ["1", "2", "3"]\n  y-axis "ms" 0 --> 40\n  line [5, 10, 0.333333]\n',
    );
  });

  it("sets the size when asked, and always the theme's inks on a transparent background", () => {
    const src = xyChart({ x: ["a"], width: 500, height: 300, series: [{ kind: "bar", values: [1] }] });
    expect(
      src.startsWith("---\nconfig:\n  xyChart:\n    width: 500\n    height: 300\n  themeVariables:\n"),
    ).toBe(true);
    // Lower, mermaid would drop the axis titles (the units): 240 px at least.
    expect(xyChart({ x: ["a"], height: 200, series: [{ kind: "bar", values: [1] }] })).toContain(
      "    height: 240\n",
    );
    const plain = xyChart({
      x: ["a"],
      series: [
        { kind: "bar", values: [1] },
        { kind: "line", values: [1], ink: PALETTE.error.ink },
      ],
    });
    expect(plain.split("---\n")[1]).toBe(
      [
        "config:",
        "  themeVariables:",
        "    xyChart:",
        `      plotColorPalette: "${SERIES_INKS[0]}, ${PALETTE.error.ink}"`,
        '      backgroundColor: "transparent"',
        "",
      ].join("\n"),
    );
    expect(plain).toContain("---\nxychart-beta\n");
  });

  it("draws many evenly spaced numbers under lines as a numeric axis, and everything else as labels", () => {
    const axis = (x: ReadonlyArray<string | number>, kind: "line" | "bar" = "line") =>
      xyChart({ x, xLabel: "write", series: [{ kind, values: x.map(() => 1) }] })
        .split("\n")
        .find((l) => l.includes("x-axis"));
    const sixty = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(axis(sixty)).toBe('  x-axis "write" 1 --> 60');
    expect(axis(sixty.map((i) => i / 10 + (i === 30 ? 0.0001 : 0)))).toBe('  x-axis "write" 0.1 --> 6');
    expect(axis(sixty.slice(0, 15))).toContain('["1", "2",');
    expect(axis(sixty, "bar")).toContain('["1", "2",');
    expect(axis([...sixty.slice(0, 30), 99, ...sixty.slice(31)])).toContain('["1", "2",');
    expect(axis(sixty.map(String))).toContain('["1", "2",');
    expect(axis(sixty.map((i) => -i))).toContain('["-1", "-2",');
  });

  it("widens a chart whose title would be cut at its edge", () => {
    const width = (title: string, w?: number) =>
      xyChart({ title, width: w, x: ["a"], series: [{ kind: "bar", values: [1] }] }).match(
        /width: (\d+)/,
      )?.[1];
    const long = "Bytes per second as N controllers grows (poll: blue, watch: orange)";
    expect(width(long, 600)).toBe("724");
    expect(width(long)).toBe("724");
    expect(width("short", 600)).toBe("600");
    expect(width("short")).toBeUndefined();
  });

  it("turns category labels that would collide, and starts bars at zero", () => {
    const steps = ["create 3", "scale to 5", "watch dropped, scale to 2", "2 deleted by hand", "restart"];
    const chart = (x: string[], kind: "bar" | "line" = "bar", horizontal = false) =>
      xyChart({ x, horizontal, series: [{ kind, values: x.map((_, i) => i + 2) }] });
    expect(chart(steps)).toContain("  xyChart:\n    xAxis:\n      labelRotation: 45\n");
    expect(chart(steps.slice(0, 2))).not.toContain("labelRotation");
    expect(chart(steps, "bar", true)).not.toContain("labelRotation");
    expect(chart(steps)).toContain("  y-axis 0 --> 6\n");
    expect(chart(steps, "line")).not.toContain("y-axis");
    expect(xyChart({ x: ["a"], series: [{ kind: "bar", values: [-2] }] })).toContain("  y-axis -2 --> 0\n");
    expect(xyChart({ x: ["a"], series: [{ kind: "bar", values: [0] }] })).toContain("  y-axis 0 --> 1\n");
  });

  it("rejects mismatched, empty and non-finite data", () => {
    expect(() => xyChart({ x: [1, 2], series: [{ kind: "bar", values: [1] }] })).toThrow(/1 values for 2 x/);
    expect(() => xyChart({ x: [], series: [{ kind: "bar", values: [] }] })).toThrow(/at least one x/);
    expect(() => xyChart({ x: [1], series: [] })).toThrow(/at least one series/);
    expect(() => xyChart({ x: [1], series: [{ kind: "line", values: [Number.NaN] }] })).toThrow(/finite/);
  });
});

describe("requestBarChart", () => {
  it("sums rows per label, marks non-2xx codes and puts the biggest first", () => {
    const rows = [
      { verb: "GET", resource: "configmaps", code: 200, count: 1 },
      { verb: "LIST", resource: "configmaps", code: 200, count: 4 },
      { verb: "GET", resource: "configmaps", code: 200, count: 2 },
      { verb: "GET", resource: "configmaps", code: 404, count: 1 },
    ];
    const src = requestBarChart(rows, { title: "after the informer synced" });
    expect(src).toContain('x-axis ["LIST configmaps", "GET configmaps", "GET configmaps 404"]');
    // Underneath, every bar in red; on top, the successes in blue: only the failure stays red.
    expect(src).toContain("bar [4, 3, 1]\n  bar [4, 3, 0]\n");
    expect(src).toContain(`plotColorPalette: "${PALETTE.error.ink}, ${SERIES_INKS[0]}"`);
    expect(src).toContain('y-axis "requests" 0 --> 4');
    expect(src).toContain('title "after the informer synced"');
    expect(requestLabel({ verb: "WATCH", resource: "pods", code: 200 })).toBe("WATCH pods");
    const byVerb = requestBarChart(rows, { by: "verb" });
    expect(byVerb).toContain('x-axis ["LIST", "GET", "GET 404"]');
    expect(byVerb).toContain("bar [4, 3, 1]");
  });

  it("draws one blue series when every request succeeded", () => {
    const src = requestBarChart([{ verb: "list", resource: "pods", code: 200, count: 2 }]);
    expect(src.match(/^ {2}bar /gm)).toHaveLength(1);
    expect(src).toContain(`plotColorPalette: "${SERIES_INKS[0]}"`);
  });

  it("draws an explicit empty bar when there were no requests", () => {
    expect(requestBarChart([])).toContain('x-axis ["(no requests)"]');
  });

  it("is tall enough for mermaid to keep the value axis' unit, and grows 40 px a bar", () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ verb: "get", resource: `r${i}`, code: 200, count: 1 }));
    expect(requestBarChart(rows(2))).toContain("    height: 240\n");
    expect(requestBarChart(rows(10))).toContain("    height: 520\n");
    expect(requestBarChart(rows(2))).toContain('y-axis "requests" 0 --> 1');
  });
});

describe("markdownTable", () => {
  it("renders headers, escapes pipes and blanks missing cells", () => {
    expect(
      markdownTable(
        ["verb", "count"],
        [
          ["GET|LIST", 3],
          [null, undefined],
        ],
      ),
    ).toBe("| verb | count |\n|---|---|\n| GET\\|LIST | 3 |\n|  |  |\n");
  });

  it("rejects ragged rows", () => {
    expect(() => markdownTable(["a", "b"], [["only one"]])).toThrow(/row 0 has 1 cells for 2 columns/);
  });
});
