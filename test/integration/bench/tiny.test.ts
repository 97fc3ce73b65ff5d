import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FamilyReport } from "../../../src/tools/bench/report.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

/**
 * The tiny version of every benchmark family, run once through the real command line so the harness cannot rot.
 * No figure is judged on its value: only that every family ran, produced its table and charts (which must parse
 * like every diagram of the repository), and named any peer it could not run.
 */

const cli = "dist/tools/cli/main.js";
const out = mkdtempSync(join(tmpdir(), "bench-tiny-"));
const families = [
  "client-go",
  "watch-vs-poll",
  "cache-vs-live",
  "leader-election",
  "backends",
  "scale",
  "http2",
  "learners-wait",
];

function bench(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [cli, "bench", ...args], { encoding: "utf8", timeout: 900_000, env });
}

let report: { families: FamilyReport[] };
let run: ReturnType<typeof bench>;

describe.skipIf(!existsSync(cli))("npm run bench -- --tiny", () => {
  beforeAll(() => {
    run = bench(["--tiny", "--out", out]);
    report = JSON.parse(readFileSync(join(out, "latest.json"), "utf8"));
  }, 900_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("runs every family without an error and exits 0", () => {
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const names = report.families.map((f) => f.family);
    for (const f of families) expect(names).toContain(f);
    for (const f of report.families) expect(f.error, f.family).toBeUndefined();
  });

  it("gives every issue family figures and a chart, and every chart parses", async () => {
    for (const f of report.families.filter((x) => families.includes(x.family))) {
      expect(f.figures.length, f.family).toBeGreaterThan(0);
      expect(f.charts.length, f.family).toBeGreaterThan(0);
      for (const chart of f.charts)
        expect(await mermaidParseError(chart), `${f.family}: ${chart}`).toBeUndefined();
    }
  });

  it("writes the markdown report with a table per family and prints a summary", () => {
    const md = readFileSync(join(out, "latest.md"), "utf8");
    for (const f of families) expect(md).toContain(`## ${f}:`);
    expect(md).toContain("| figure | ours | unit | target | met |");
    expect(run.stdout).toMatch(/client-go: \d+\/\d+ targets met/);
  });

  it("still runs ours and names the peer when client-go cannot run", () => {
    const empty = mkdtempSync(join(tmpdir(), "bench-no-go-"));
    try {
      const r = bench(["client-go", "--tiny", "--out", empty], {
        ...process.env,
        PATH: `${empty}`,
        WORKBOOK_PEER_CACHE: empty,
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const md = readFileSync(join(empty, "latest.md"), "utf8");
      expect(md).toContain("- peer missing: client-go peer: no Go toolchain on PATH");
      expect(md).toMatch(/\| informer initial sync, 300 ConfigMaps/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 120_000);
});
