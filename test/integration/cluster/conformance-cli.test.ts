import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { run } from "../../../src/tools/cli/conformance.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "conformance-cli-"));
  vi.stubEnv("WORKBOOK_CONFORMANCE_SELFTEST", "1");
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe("workbook conformance (end to end, on a sample suite that needs no cluster)", () => {
  it("runs the suite once per backend, tabulates the outcomes and reports the difference", async () => {
    const out = join(dir, "report.md");
    const code = await run([
      "--dir",
      "test/integration/cluster/fixtures",
      "--backends",
      "embedded,kubeconfig",
      "--out",
      out,
    ]);
    expect(code).toBe(1);
    const report = readFileSync(out, "utf8");
    const prefix = "test/integration/cluster/fixtures/sample-suite.test.ts > sample suite";
    expect(report).toContain("| scenario | embedded | kubeconfig |");
    expect(report).toContain(`| ${prefix} > agrees everywhere | pass | pass |`);
    expect(report).toContain(`| ${prefix} > differs on kubeconfig | pass | **FAIL** |`);
    expect(report).toContain(`| ${prefix} > is skipped | skip | skip |`);
    expect(report).toContain("## Differences from embedded (1)");
    expect(report).toMatch(/differs on kubeconfig\*\*: embedded passed; kubeconfig failed \(AssertionError/);
  }, 120_000);
});
