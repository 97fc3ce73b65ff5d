import { describe, expect, it } from "vitest";
import {
  type FamilyReport,
  type RunInfo,
  renderMarkdown,
  renderSummary,
} from "../../../src/tools/bench/report.js";
import { xyChart } from "../../../src/workbook/viz/xychart.js";

const info: RunInfo = {
  date: "2026-12-02T00:00:00.000Z",
  node: "v20.20.2",
  cpus: 2,
  cpuModel: "test cpu",
  loadStart: [1, 2, 3],
  loadEnd: [1, 2, 3],
  tiny: false,
  versions: { "client-go": "v0.37.2" },
};

const family: FamilyReport = {
  family: "client-go",
  title: "against the reference",
  seconds: 1.5,
  figures: [
    {
      name: "sync | 10k",
      value: 52.4,
      unit: "ms",
      target: "<= 1000",
      met: true,
      peers: [{ name: "client-go", value: 82, ratio: 82 / 52.4 }],
    },
    { name: "cycles", value: 1_234_567, unit: "cycles/s", target: ">= 1", met: false },
  ],
  charts: [xyChart({ x: [1, 2], series: [{ kind: "line", values: [1, 2] }] })],
  missing: ["envtest: no kube-apiserver binaries"],
};

describe("bench report", () => {
  const md = renderMarkdown(info, [family]);

  it("writes a table per family with the peer, its ratio and the verdict, escaping pipes", () => {
    expect(md).toContain("## client-go: against the reference");
    expect(md).toContain("| sync \\| 10k | 52.4 | ms | <= 1000 | met | client-go: 82.0 (x1.56) |");
    expect(md).toContain("| cycles | 1,234,567 | cycles/s | >= 1 | MISSED |");
  });

  it("names the missing peer and embeds the chart as a mermaid block", () => {
    expect(md).toContain("- peer missing: envtest: no kube-apiserver binaries");
    expect(md).toMatch(/```mermaid\n(---\n[\s\S]*?\n---\n)?xychart-beta\n[\s\S]*?\n```/);
  });

  it("renders a 0/0 ratio, and the null that NaN becomes on its way from a family's process, without throwing", () => {
    const odd: FamilyReport = {
      ...family,
      figures: [
        {
          name: "p99 at tiny size",
          value: null as unknown as number,
          unit: "ms",
          target: "<= 10",
          met: false,
          peers: [
            { name: "poll", value: 0, ratio: Number.NaN },
            { name: "json", value: 0, ratio: null as unknown as number },
          ],
        },
      ],
    };
    const text = renderMarkdown(info, [JSON.parse(JSON.stringify(odd)) as FamilyReport]);
    expect(text).toContain(
      "| p99 at tiny size | n/a | ms | <= 10 | MISSED | poll: 0.00 (no ratio); json: 0.00 (no ratio) |",
    );
    expect(renderSummary([odd]).join("\n")).toContain("(no ratio vs poll)");
  });

  it("states machine, load and versions", () => {
    expect(md).toContain("Node v20.20.2; 2 x test cpu; load average 1.0 2.0 3.0");
    expect(md).toContain("client-go v0.37.2");
  });

  it("summarises targets met per family for the console", () => {
    const lines = renderSummary([family]);
    expect(lines[0]).toMatch(/^client-go: 1\/2 targets met/);
    expect(lines.some((l) => l.includes("MISSED cycles"))).toBe(true);
    expect(lines.at(-1)).toContain("peer missing: envtest");
  });
});
