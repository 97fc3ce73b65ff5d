/**
 * Driving one notebook in JupyterLab the way a learner does (open it, Run All, read what it shows), and reading
 * back what a learner would see, cell by cell. The app is asked through `window.jupyterapp` (exposed by the
 * test's server) for kernels and outputs; what is *seen* (rendered diagrams, their size, answers that open) is
 * read from the DOM.
 *
 * The functions passed to `page.evaluate` run in the browser: they use only their argument and the page.
 */
import type { Page } from "playwright-core";

/** A mermaid diagram as the page shows it. */
export interface SeenDiagram {
  /** `cell 3 (showMermaid(...))`. */
  where: string;
  /** Rendered as an SVG image (false: JupyterLab's "could not render" box). */
  svg: boolean;
  /** Displayed width / the width mermaid drew it at: below 1 the diagram, and its text, were shrunk to fit. */
  scale: number;
  /** The width mermaid drew it at, in CSS pixels. */
  width: number;
}

/** What one notebook shows after Run All. */
export interface NotebookView {
  kernel: { name: string; displayName: string };
  /** Code cells that never ran (execution count still empty). */
  notRun: string[];
  /** Error outputs (exceptions, type errors) with the cell they are in. */
  errors: string[];
  /** stderr text, reported, not failed on: a "Break it" cell may log a retried conflict on purpose. */
  stderr: string[];
  /** Diagrams the notebook holds: ```mermaid fences in markdown cells and mermaid outputs of code cells. */
  expectedDiagrams: number;
  diagrams: SeenDiagram[];
  /** "N/M checks" summaries found in outputs, as [N, M]. */
  checkSummaries: Array<[number, number]>;
  /** Outputs of single checks ("check passed: ..."), counted to know whether a summary must exist. */
  checkLines: number;
  /** `<details>` blocks (model answers) in rendered markdown. */
  answers: number;
  /** Code cells whose longest line does not fit the editor (the learner scrolls sideways to read it). */
  wideCode: string[];
  /** Outputs and markdown tables wider than the page (clipped, or scrolled sideways). */
  wideOutputs: string[];
  /** Single outputs taller than {@link TALL_OUTPUT_PX}: a wall of text to scroll past. */
  tallOutputs: string[];
}

/** An output taller than this (CSS px; the viewport is 900) should be summarised or folded. */
export const TALL_OUTPUT_PX = 1200;

type AnyWindow = { jupyterapp: any; document: any };

/** In-page expression: the element that scrolls the open notebook (JupyterLab 4's windowed list). */
const SCROLLER = "window.jupyterapp.shell.currentWidget.node.querySelector('.jp-WindowedPanel-outer')";

/** Opens `path` (relative to the server root) in a fresh workspace and waits for its kernel to be idle. */
export async function openNotebook(page: Page, base: string, token: string, path: string): Promise<void> {
  await page.goto(`${base}/lab/tree/${encodeURI(path)}?reset&token=${token}`);
  await page.waitForFunction(
    (file) => {
      const panel = (globalThis as unknown as AnyWindow).jupyterapp?.shell?.currentWidget;
      return panel?.context?.path === file && panel.sessionContext?.session?.kernel?.status === "idle";
    },
    path,
    { timeout: 120_000, polling: 250 },
  );
}

/** Runs every cell (Run > Run All Cells) and waits until nothing is running or queued any more. */
export async function runAll(page: Page, timeoutMs: number): Promise<void> {
  await page.evaluate(() =>
    (globalThis as unknown as AnyWindow).jupyterapp.commands.execute("notebook:run-all-cells"),
  );
  await page.waitForFunction(
    () => {
      const w = globalThis as unknown as AnyWindow;
      const panel = w.jupyterapp.shell.currentWidget;
      const busy = [...w.document.querySelectorAll(".jp-InputArea-prompt")].some((p: any) =>
        p.textContent.includes("*"),
      );
      return panel.sessionContext.session?.kernel?.status === "idle" && !busy;
    },
    undefined,
    { timeout: timeoutMs, polling: 500 },
  );
}

/**
 * Waits (up to `timeoutMs`) until as many mermaid diagrams are on the page as the notebook holds, rendered or
 * not, then reads everything {@link NotebookView} describes.
 */
export async function readNotebook(page: Page, timeoutMs = 30_000): Promise<NotebookView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await page.evaluate(readInPage);
    if (view.diagrams.length >= view.expectedDiagrams || Date.now() > deadline) return view;
    await page.waitForTimeout(500);
  }
}

/** In-page: reads the current notebook (see {@link NotebookView}). */
function readInPage(): NotebookView {
  const w = globalThis as unknown as AnyWindow;
  const panel = w.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session?.kernel;
  const spec = panel.sessionContext.kernelDisplayName;
  const fences = (text: string) => (text.match(/^\s*(```+|~~~+)\s*mermaid\s*$/gm) ?? []).length;
  const view: NotebookView = {
    kernel: { name: kernel?.name ?? "", displayName: spec ?? "" },
    notRun: [],
    errors: [],
    stderr: [],
    expectedDiagrams: 0,
    diagrams: [],
    checkSummaries: [],
    checkLines: 0,
    answers: 0,
    wideCode: [],
    wideOutputs: [],
    tallOutputs: [],
  };
  const tallPx = 1200;
  const overflows = (el: any) => el.scrollWidth > el.clientWidth + 2;
  let codeNumber = 0;
  panel.content.widgets.forEach((cell: any, index: number) => {
    const json = cell.model.toJSON();
    const source = Array.isArray(json.source) ? json.source.join("") : json.source;
    const firstLine = (source.split("\n").find((l: string) => l.trim()) ?? "").trim().slice(0, 60);
    const where =
      json.cell_type === "code"
        ? `cell ${++codeNumber} of code (${firstLine})`
        : `cell ${index + 1} (${firstLine})`;
    // Model answers: in markdown cells, and in markdown outputs (showQuestions).
    view.answers += cell.node.querySelectorAll(".jp-RenderedMarkdown details").length;
    if (json.cell_type === "markdown") {
      view.expectedDiagrams += fences(source);
      const tables = [...cell.node.querySelectorAll(".jp-RenderedMarkdown table")];
      const wide = tables.filter((table: any) => {
        const box = table.closest(".jp-RenderedMarkdown");
        return table.getBoundingClientRect().right > box.getBoundingClientRect().right + 2;
      });
      if (wide.length > 0) view.wideOutputs.push(`${where}: a table is wider than the page`);
    }
    if (json.cell_type === "code") {
      if (json.execution_count === null && source.trim()) view.notRun.push(where);
      for (const out of json.outputs ?? []) {
        if (out.output_type === "error") view.errors.push(`${where}: ${out.ename}: ${out.evalue}`);
        if (out.output_type === "stream" && out.name === "stderr") view.stderr.push(`${where}: ${out.text}`);
        const data = out.data ?? {};
        if (data["text/vnd.mermaid"] !== undefined) view.expectedDiagrams += 1;
        else if (typeof data["text/markdown"] === "string")
          view.expectedDiagrams += fences(data["text/markdown"]);
      }
      const editor = cell.node.querySelector(".cm-scroller");
      if (editor && overflows(editor)) {
        const longest = Math.max(...source.split("\n").map((l: string) => l.length));
        view.wideCode.push(`${where}: a line of ${longest} characters does not fit the cell`);
      }
      for (const out of cell.node.querySelectorAll(".jp-OutputArea-output")) {
        const wide = out.querySelector("table, pre") ?? out;
        if (overflows(out) || overflows(wide))
          view.wideOutputs.push(`${where}: an output is wider than the page`);
        const height = out.getBoundingClientRect().height;
        if (height > tallPx) view.tallOutputs.push(`${where}: an output ${Math.round(height)} px tall`);
      }
      const text = cell.node.querySelector(".jp-OutputArea")?.textContent ?? "";
      for (const m of text.matchAll(/(\d+)\s*\/\s*(\d+) checks\b/g))
        view.checkSummaries.push([Number(m[1]), Number(m[2])]);
      view.checkLines += (text.match(/check (passed|failed|skipped)/g) ?? []).length;
    }
    for (const box of cell.node.querySelectorAll(".jp-RenderedMermaid")) {
      const img = box.querySelector("figure img");
      const drawn = Number(img?.getAttribute("width") ?? 0);
      const shown = img?.getBoundingClientRect().width ?? 0;
      view.diagrams.push({
        where,
        svg:
          !!img &&
          String(img.getAttribute("src")).startsWith("data:image/svg+xml") &&
          !box.classList.contains("jp-mod-warning"),
        scale: drawn > 0 ? Math.round((shown / drawn) * 100) / 100 : 1,
        width: drawn,
      });
    }
  });
  return view;
}

/**
 * Clicks every model answer (`<details>` in a markdown cell) open, checking it was closed and shows content
 * once open. Returns the problems, empty when every answer behaved.
 */
export async function openAnswers(page: Page): Promise<string[]> {
  const answers = page.locator(".jp-RenderedMarkdown details");
  const problems: string[] = [];
  const count = await answers.count();
  for (let i = 0; i < count; i++) {
    const answer = answers.nth(i);
    const title = ((await answer.locator("summary").first().textContent()) ?? "").trim().slice(0, 60);
    if (await answer.evaluate((el: any) => el.open)) {
      problems.push(`answer "${title}" is open before any click`);
      continue;
    }
    await answer.locator("summary").first().scrollIntoViewIfNeeded();
    await answer.locator("summary").first().click();
    const shown = await answer.evaluate((el: any) => {
      const body = [...el.children].filter((c: any) => c.tagName !== "SUMMARY");
      return el.open && body.some((c: any) => c.getBoundingClientRect().height > 0);
    });
    if (!shown) problems.push(`answer "${title}" did not open on click`);
  }
  return problems;
}

/**
 * Screenshots of the whole notebook, one viewport at a time from the top (what a learner scrolls through), as
 * `${prefix}-01.png`, `${prefix}-02.png`...; returns the files written.
 */
export async function screenshotNotebook(page: Page, prefix: string, maxShots = 40): Promise<string[]> {
  const scroller = SCROLLER;
  const files: string[] = [];
  const total = await page.evaluate(`(${scroller}).scrollHeight`);
  const step = await page.evaluate(`(${scroller}).clientHeight`);
  for (let top = 0, n = 1; n <= maxShots; top += Math.max(1, Number(step) - 60), n++) {
    await page.evaluate(`(${scroller}).scrollTop = ${top}`);
    await page.waitForTimeout(250);
    const file = `${prefix}-${String(n).padStart(2, "0")}.png`;
    await page.screenshot({ path: file });
    files.push(file);
    if (top + Number(step) >= Number(total)) break;
  }
  return files;
}

/** Switches JupyterLab's theme ("JupyterLab Light" or "JupyterLab Dark") and waits for it to apply. */
export async function setTheme(page: Page, theme: string): Promise<void> {
  await page.evaluate(
    (t) =>
      (globalThis as unknown as AnyWindow).jupyterapp.commands.execute("apputils:change-theme", { theme: t }),
    theme,
  );
  const light = theme.includes("Light");
  await page.waitForFunction(
    (want) => (globalThis as unknown as AnyWindow).document.body.dataset.jpThemeLight === want,
    String(light),
    { timeout: 30_000 },
  );
}

/** Shuts the notebook's kernel down and closes it without saving (the file on disk is never written). */
export async function closeNotebook(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const panel = (globalThis as unknown as AnyWindow).jupyterapp.shell.currentWidget;
    await panel.sessionContext.shutdown();
    panel.context.model.dirty = false;
    panel.dispose();
  });
}
