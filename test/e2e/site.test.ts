/**
 * `npm run site`, then the site in Chromium as a reader meets it, served from loopback: starting at the index,
 * every page reachable by a link is opened in the light and the dark colour scheme, and must load without a
 * console error, a failed request or a request leaving the site, with every mermaid diagram drawn as an SVG
 * by the site's own mermaid. Answers and long outputs must be folded and open on click. Screenshots of every
 * page go to test-results/site/.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNotebooks } from "../../src/tools/cli/notebooks.js";
import { notebookSkipReason, paths } from "../notebooks/notebook-support.js";
import { freshArtifactDir } from "./support/artifacts.js";
import { chromiumSkipReason, launchChromium } from "./support/chromium.js";
import { type StaticServer, serveFolder } from "./support/static-server.js";

const skipReason = chromiumSkipReason() ?? notebookSkipReason();

/** What one page showed. */
interface PageReport {
  path: string;
  problems: string[];
  diagrams: number;
  links: string[];
}

/** Runs `workbook site --out out`; resolves with its exit code and output. */
function buildSite(out: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(paths.root, "dist", "tools", "cli", "main.js"), "site", "--out", out],
      {
        cwd: paths.root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (c) => {
      output += c;
    });
    child.stderr.on("data", (c) => {
      output += c;
    });
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Opens `path` and reads what the reader gets: problems, diagrams drawn, links to other pages. */
async function visit(page: Page, base: string, path: string): Promise<PageReport> {
  const problems: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  };
  const onPageError = (err: Error) => problems.push(`page error: ${err.message}`);
  const onRequest = (req: { url(): string }) => {
    if (!req.url().startsWith(base) && !req.url().startsWith("data:"))
      problems.push(`request off the site: ${req.url()}`);
  };
  const onFailed = (req: { url(): string }) => problems.push(`request failed: ${req.url()}`);
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("request", onRequest);
  page.on("requestfailed", onFailed);
  try {
    const response = await page.goto(`${base}/${path}`);
    if (!response?.ok()) problems.push(`HTTP ${response?.status()}`);
    await page.waitForFunction(
      () => (globalThis as any).document.body.dataset.diagrams !== undefined,
      undefined,
      {
        timeout: 60_000,
      },
    );
    const seen = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const diagrams = [...doc.querySelectorAll("pre.mermaid")];
      return {
        state: doc.body.dataset.diagrams as string,
        total: diagrams.length,
        drawn: diagrams.filter(
          (d: any) => d.querySelector("svg") && !d.querySelector('svg[aria-roledescription="error"]'),
        ).length,
        openDetails: [...doc.querySelectorAll("details[open]")].length,
        links: [...doc.querySelectorAll("a[href]")].map((a: any) => a.href as string),
      };
    });
    if (seen.state !== "done") problems.push(`diagrams: ${seen.state}`);
    if (seen.drawn !== seen.total)
      problems.push(`${seen.total - seen.drawn} of ${seen.total} diagrams not drawn`);
    if (seen.openDetails > 0) problems.push(`${seen.openDetails} answers or outputs open before a click`);
    const links = seen.links
      .filter((href) => href.startsWith(`${base}/`))
      .map((href) => href.slice(base.length + 1).split("#")[0]!)
      .filter((p) => p.endsWith(".html"));
    return { path, problems, diagrams: seen.total, links };
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("request", onRequest);
    page.off("requestfailed", onFailed);
  }
}

describe.skipIf(skipReason !== undefined)(
  `the static site, in Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let out: string;
    let server: StaticServer;
    let browser: Browser;
    let artifacts: string;
    let build: { code: number; output: string };
    const seconds: Record<string, number> = {};

    beforeAll(async () => {
      artifacts = freshArtifactDir(paths.root, "site");
      out = join(mkdtempSync(join(tmpdir(), "workbook-site-test-")), "site");
      let started = Date.now();
      build = await buildSite(out);
      seconds.build = (Date.now() - started) / 1000;
      server = await serveFolder(out);
      started = Date.now();
      browser = await launchChromium();
      seconds.browser = (Date.now() - started) / 1000;
    }, 900_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (out) rmSync(join(out, ".."), { recursive: true, force: true });
    });

    it("npm run site executes every notebook and writes a page for each, the labs and the questions", () => {
      expect(build.code, build.output).toBe(0);
      for (const file of listNotebooks(paths.notebooks)) {
        expect(existsSync(join(out, "notebooks", `${basename(file, ".ipynb")}.html`))).toBe(true);
      }
      for (const page of ["index.html", "labs/index.html", "questions.html", "assets/mermaid.min.js"]) {
        expect(existsSync(join(out, page)), page).toBe(true);
      }
    });

    it.each([
      ["light", "light"],
      ["dark", "dark"],
    ] as const)(
      "every page, in the %s scheme, loads cleanly from loopback with every diagram drawn",
      async (_name, scheme) => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
        const started = Date.now();
        const queue = ["index.html"];
        const reports: PageReport[] = [];
        try {
          while (queue.length > 0) {
            const path = queue.shift()!;
            if (reports.some((r) => r.path === path)) continue;
            const report = await visit(page, server.base, path);
            reports.push(report);
            await page.screenshot({
              path: join(artifacts, `${path.replace(/\//g, "_").replace(/\.html$/, "")}-${scheme}.png`),
            });
            queue.push(...report.links);
          }
        } finally {
          await page.close();
        }
        seconds[scheme] = (Date.now() - started) / 1000;
        const expected = ["index.html", "questions.html", "labs/index.html"].concat(
          listNotebooks(paths.notebooks).map((f) => `notebooks/${basename(f, ".ipynb")}.html`),
        );
        expect(reports.map((r) => r.path)).toEqual(expect.arrayContaining(expected));
        expect(reports.filter((r) => r.problems.length > 0)).toEqual([]);
        expect(server.missing).toEqual([]);
        expect(reports.find((r) => r.path === "index.html")!.diagrams).toBeGreaterThanOrEqual(1);
        process.stdout.write(
          `site (${scheme}): ${reports.length} pages, ${reports.reduce((n, r) => n + r.diagrams, 0)} diagrams, ` +
            `${seconds[scheme]!.toFixed(1)} s; build ${seconds.build!.toFixed(1)} s\n`,
        );
      },
      300_000,
    );

    it("folded answers and long outputs open on click", async () => {
      const page = await browser.newPage();
      try {
        let clicked = 0;
        for (const path of [
          "questions.html",
          ...listNotebooks(paths.notebooks).map((f) => `notebooks/${basename(f, ".ipynb")}.html`),
        ]) {
          await page.goto(`${server.base}/${path}`);
          const folds = page.locator("details");
          for (let i = 0; i < (await folds.count()); i++) {
            const fold = folds.nth(i);
            expect(
              await fold.evaluate((el: any) => el.open),
              `${path}: details ${i} open before a click`,
            ).toBe(false);
            await fold.locator("summary").first().click();
            expect(await fold.evaluate((el: any) => el.open), `${path}: details ${i} did not open`).toBe(
              true,
            );
            clicked += 1;
          }
        }
        process.stdout.write(`site: ${clicked} folded answers or outputs opened\n`);
      } finally {
        await page.close();
      }
    }, 120_000);
  },
);
