import { describe, expect, it } from "vitest";
import {
  type BackendRun,
  conformanceDifferences,
  parseVitestJson,
  renderConformanceReport,
} from "../../../src/tools/cli/conformance/report.js";

const report = {
  testResults: [
    {
      name: "/repo/test/conformance/crud.test.ts",
      assertionResults: [
        { ancestorTitles: ["crud"], title: "creates", status: "passed", failureMessages: [] },
        {
          ancestorTitles: ["crud"],
          title: "conflicts",
          status: "failed",
          failureMessages: ["\u001b[31mAssertionError: expected 200 to be 409\u001b[39m\n    at stack"],
        },
        { ancestorTitles: ["crud"], title: "needs kubelet", status: "skipped", failureMessages: [] },
      ],
    },
  ],
};

function run(backend: string, outcomes: Record<string, "passed" | "failed" | "skipped">): BackendRun {
  return { backend, results: new Map(Object.entries(outcomes).map(([k, outcome]) => [k, { outcome }])) };
}

describe("conformance report", () => {
  it("parses vitest's JSON reporter into scenario results with the first failure line", () => {
    const results = parseVitestJson(report, "/repo");
    expect([...results.keys()]).toEqual([
      "test/conformance/crud.test.ts > crud > creates",
      "test/conformance/crud.test.ts > crud > conflicts",
      "test/conformance/crud.test.ts > crud > needs kubelet",
    ]);
    expect(results.get("test/conformance/crud.test.ts > crud > conflicts")).toEqual({
      outcome: "failed",
      message: "AssertionError: expected 200 to be 409",
    });
    expect(results.get("test/conformance/crud.test.ts > crud > needs kubelet")?.outcome).toBe("skipped");
    expect(() => parseVitestJson({ nope: 1 }, "/")).toThrow(/Not a vitest JSON report/);
  });

  it("lists only scenarios whose outcome differs where both backends ran them", () => {
    const runs = [
      run("embedded", { a: "passed", b: "failed", c: "skipped", d: "passed" }),
      run("envtest", { a: "passed", b: "passed", c: "failed", d: "failed" }),
    ];
    expect(conformanceDifferences(runs).map((d) => [d.scenario, d.embedded.outcome, d.real.outcome])).toEqual(
      [
        ["b", "failed", "passed"],
        ["d", "passed", "failed"],
      ],
    );
  });

  it("renders a side-by-side markdown table, unrunnable backends and the differences", () => {
    const runs: BackendRun[] = [
      run("embedded", { "x > a|b": "passed", y: "passed" }),
      run("envtest", { "x > a|b": "failed", y: "passed" }),
      { backend: "kind", results: new Map(), error: "no container runtime" },
    ];
    const md = renderConformanceReport(runs);
    expect(md).toContain("| scenario | embedded | envtest | kind |");
    expect(md).toContain("| x > a\\|b | pass | **FAIL** | not run |");
    expect(md).toContain("| y | pass | pass | not run |");
    expect(md).toContain("- kind could not run: no container runtime");
    expect(md).toContain("## Differences from embedded (1)");
    expect(md).toContain("- **x > a\\|b**: embedded passed; envtest failed");
  });
});
