/**
 * Builds the static site from executed notebooks, the labs' READMEs and the question bank:
 *
 *   index.html                 learning path, a card per notebook, labs, questions
 *   notebooks/NN-topic.html    one page per notebook (code, outputs, diagrams, checks, folded answers)
 *   labs/index.html            labs/README.md
 *   labs/NN-topic.html         each lab's README.md
 *   questions.html             the question bank, answers folded
 *   assets/                    stylesheet, page script, mermaid, highlight.js colours
 *
 * Everything a page needs is in the folder: it opens from disk or any static server, offline.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeAssets } from "./assets.js";
import { indexBody, type LabInfo } from "./index-page.js";
import { renderMarkdown } from "./markdown.js";
import { notebookBody } from "./notebook-html.js";
import { type NotebookInfo, notebookInfo } from "./notebook-info.js";
import type { NotebookJson } from "./notebook-json.js";
import { type PageSpec, renderPage } from "./page.js";
import { type BankQuestion, questionsBody } from "./question-page.js";

/** What the site is built from. */
export interface SiteInput {
  /** The checkout (labs/ is read from here). */
  root: string;
  /** Notebook files to show, in learning-path order (executed copies, or the stored ones). */
  notebooks: readonly string[];
  /** The question bank's entries. */
  questions: readonly BankQuestion[];
  /** The folder to write; emptied first if it holds an earlier build, refused if it holds anything else. */
  out: string;
}

/** Pages written, site-relative. */
export interface SiteResult {
  pages: string[];
}

function title(markdown: string, fallback: string): string {
  return /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? fallback;
}

/** Empties `out` when it is missing, empty, or an earlier build (it has assets/site.js); refuses otherwise. */
function prepareOut(out: string): void {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!existsSync(join(out, "assets", "site.js"))) {
      throw new Error(`site: ${out} is not empty and holds no earlier build; choose another --out`);
    }
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
}

function labPages(root: string): { labs: LabInfo[]; pages: PageSpec[] } {
  const labsDir = join(root, "labs");
  const pages: PageSpec[] = [];
  const labs: LabInfo[] = [];
  const readme = join(labsDir, "README.md");
  if (existsSync(readme)) {
    const text = readFileSync(readme, "utf8");
    const body = renderMarkdown(text, { repoFile: "labs/README.md", sitePage: "labs/index.html" });
    pages.push({ path: "labs/index.html", title: title(text, "Labs"), body });
  } else {
    pages.push({ path: "labs/index.html", title: "Labs", body: "<h1>Labs</h1><p>No labs yet.</p>" });
  }
  const folders = existsSync(labsDir) ? readdirSync(labsDir, { withFileTypes: true }) : [];
  for (const entry of folders.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(labsDir, entry.name, "README.md");
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const path = `labs/${entry.name}.html`;
    const body = renderMarkdown(text, { repoFile: `labs/${entry.name}/README.md`, sitePage: path });
    labs.push({ name: entry.name, title: title(text, entry.name) });
    pages.push({ path, title: title(text, entry.name), body });
  }
  return { labs, pages };
}

/** Builds the site (see the module comment) and returns the pages written. */
export function buildSite(input: SiteInput): SiteResult {
  prepareOut(input.out);
  const loaded = input.notebooks.map((file) => ({
    name: basename(file, ".ipynb"),
    nb: JSON.parse(readFileSync(file, "utf8")) as NotebookJson,
  }));
  const infos: NotebookInfo[] = loaded.map(({ name, nb }) =>
    notebookInfo(
      name,
      nb,
      input.questions.filter((q) => q.notebook === name).map((q) => q.topic),
    ),
  );
  const pages: PageSpec[] = loaded.map(({ nb }, i) => ({
    path: `notebooks/${infos[i]!.name}.html`,
    title: infos[i]!.title,
    body: notebookBody(infos[i]!, nb, { previous: infos[i - 1], next: infos[i + 1] }),
  }));
  const { labs, pages: labPageList } = labPages(input.root);
  pages.push(...labPageList);
  const titles = new Map(infos.map((info) => [info.name, info.title]));
  pages.push({ path: "questions.html", title: "Questions", body: questionsBody(input.questions, titles) });
  pages.push({ path: "index.html", title: "Home", body: indexBody(infos, labs, input.questions.length) });
  for (const page of pages) {
    const file = join(input.out, page.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, renderPage(page));
  }
  writeAssets(input.out);
  return { pages: pages.map((p) => p.path) };
}
