import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sumSamples } from "../../../src/workbook/graders/support/go-track.js";
import { isGoTrack } from "../../../src/workbook/grading/go-build.js";

describe("the Go track's reconcile count", () => {
  const exposition = [
    "# HELP controller_runtime_reconcile_total Total number of reconciliations per controller",
    "# TYPE controller_runtime_reconcile_total counter",
    'controller_runtime_reconcile_total{controller="configset",result="error"} 4',
    'controller_runtime_reconcile_total{controller="configset",result="requeue"} 0',
    'controller_runtime_reconcile_total{controller="configset",result="success"} 17',
    'controller_runtime_reconcile_total_seconds{controller="configset"} 99',
    'controller_runtime_reconcile_errors_total{controller="configset"} 4',
    "controller_runtime_reconcile_total 2",
  ].join("\n");

  it("sums every label set of the metric (errors are reconciles too), and only that metric", () => {
    expect(sumSamples(exposition, "controller_runtime_reconcile_total")).toBe(23);
  });

  it("is 0 when the program registered no controller", () => {
    expect(sumSamples("# nothing here\ngo_goroutines 12\n", "controller_runtime_reconcile_total")).toBe(0);
  });
});

describe("which track a lab folder is graded on", () => {
  it("is Go when the folder holds a go.mod, TypeScript otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "go-track-"));
    try {
      expect(isGoTrack(dir)).toBe(false);
      writeFileSync(join(dir, "go.mod"), "module example.com/lab\n\ngo 1.26.0\n");
      expect(isGoTrack(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
