import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

const cli = "dist/tools/cli/main.js";
const workbook = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, WORKBOOK_DEBUG: "" },
  });

describe.skipIf(!existsSync(cli))("workbook command line", () => {
  it("prints every command's usage for --help without running it", () => {
    for (const command of [
      "setup",
      "lab",
      "cluster",
      "notebooks",
      "grade",
      "bench",
      "envtest",
      "conformance",
    ]) {
      const r = workbook(command, "--help");
      expect(r.status, command).toBe(0);
      expect(r.stdout, command).toContain(`usage: workbook ${command}`);
    }
  });

  it("rejects an unknown option with a hint and no stack trace", () => {
    const r = workbook("conformance", "--no-such-option");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--no-such-option");
    expect(r.stderr).toContain("workbook conformance --help");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a bench filter that matches no suite instead of writing empty results", () => {
    const r = workbook("bench", "no-such-suite");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no suite matches "no-such-suite"; suites: .*workqueue/);
  });

  it("names the commands on an unknown one", () => {
    const r = workbook("frobnicate");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
    expect(r.stderr).toContain("notebooks");
  });
});
