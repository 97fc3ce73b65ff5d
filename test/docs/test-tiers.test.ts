/**
 * The two test tiers (test/tiers.ts) stay what the README says: `npm test` runs the fast project, which leaves out
 * every full-only folder and file; `npm run test:all` runs both; every test file belongs to exactly one tier.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";
import config from "../../vitest.config.js";
import { FULL_ONLY, SMOKE_LAB, SMOKE_NOTEBOOK } from "../tiers.js";

const root = projectRoot();

/** Every *.test.ts under test/, relative to the root. */
function testFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".test.ts")) out.push(relative(root, join(dir, e.name)));
    }
  };
  walk(join(root, "test"));
  return out.sort();
}

/** A minimal glob match for the patterns of test/tiers.ts: `**` any folders, `*` within one name. */
function matches(file: string, glob: string): boolean {
  const re = glob
    .split("/")
    .map((part) =>
      part === "**" ? "(?:.*/)?" : `${part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}/`,
    )
    .join("");
  return new RegExp(`^${re.replace(/\(\?:\.\*\/\)\?\/?/g, "(?:.*/)?").replace(/\/$/, "")}$`).test(file);
}

type Project = { test: { name: string; include?: string[]; exclude?: string[] } };
const projects = (config.test?.projects ?? []) as Project[];
const project = (name: string) => projects.find((p) => p.test.name === name)!.test;

/** The tier a file runs in, by the config's own include and exclude lists. */
function tiersOf(file: string): string[] {
  return projects
    .filter((p) => (p.test.include ?? []).some((g) => matches(file, g)))
    .filter((p) => !(p.test.exclude ?? []).some((g) => matches(file, g)))
    .map((p) => p.test.name);
}

describe("test tiers", () => {
  it("the glob matcher has teeth", () => {
    expect(matches("test/labs/both-ways.test.ts", "test/labs/**/*.test.ts")).toBe(true);
    expect(matches("test/labs/x/y.test.ts", "test/labs/**/*.test.ts")).toBe(true);
    expect(matches("test/labs-other/y.test.ts", "test/labs/**/*.test.ts")).toBe(false);
    expect(matches("test/unit/a.full.test.ts", "test/**/*.full.test.ts")).toBe(true);
    expect(matches("test/unit/a.test.ts", "test/**/*.full.test.ts")).toBe(false);
  });

  it("the fast project excludes every full-only glob, and the full project is exactly those", () => {
    expect(project("fast").exclude).toEqual(expect.arrayContaining([...FULL_ONLY]));
    expect(project("full").include).toEqual([...FULL_ONLY]);
  });

  it("every test file runs in exactly one tier; the slow ones in the full tier, the smoke ones in the fast", () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) expect(tiersOf(file), file).toHaveLength(1);
    const full = [
      "test/notebooks/notebooks.test.ts",
      "test/labs/both-ways.test.ts",
      "test/labs/grade-cli.test.ts",
      "test/labs/wrong-answers.test.ts",
      "test/labs/wrong-answers-go.test.ts",
      "test/e2e/jupyterlab.test.ts",
      "test/chaos/informer-chaos.test.ts",
      "test/integration/bench/tiny.test.ts",
      "test/real-clients/real-clients.test.ts",
      "test/integration/cluster/envtest.test.ts",
      "test/integration/cluster/kind.test.ts",
      "test/unit/anything.full.test.ts",
    ];
    for (const file of full) expect(tiersOf(file), file).toEqual(["full"]);
    for (const file of [
      "test/smoke/notebook.test.ts",
      "test/smoke/lab.test.ts",
      "test/unit/grading/grade-cli.test.ts",
    ])
      expect(tiersOf(file), file).toEqual(["fast"]);
  });

  it("the smoke notebook and lab exist; npm test runs the fast project, test:all both", () => {
    expect(readdirSync(join(root, "notebooks"))).toContain(`${SMOKE_NOTEBOOK}.ipynb`);
    expect(readdirSync(join(root, "labs"))).toContain(SMOKE_LAB);
    const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    expect(scripts.test).toMatch(/vitest run --project fast$/);
    expect(scripts["test:all"]).toMatch(/vitest run --project fast --project full$/);
  });
});
