/**
 * The READMEs name labs, solutions and notebooks, and print how many questions each notebook has. Both drift:
 * a README once named a lab `03-owners` that never existed, and counted 14 questions for a notebook with 15. This
 * test compares what every markdown file (and every notebook's markdown cells) says with the repository.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listNotebooks } from "../../src/tools/cli/notebooks.js";
import { projectRoot } from "../../src/tools/cli/workbook-paths.js";
import { countByNotebook, QUESTION_BANK, renderedSectionTitle } from "../../src/workbook/questions/index.js";
import { documentFiles } from "./mermaid-blocks.js";
import {
  brokenSectionLinks,
  countDifferences,
  type KnownNames,
  type QuestionCountRow,
  questionCountRows,
  statedBankTotals,
  unknownNames,
} from "./readme-facts.js";

const root = projectRoot();

/** The folders directly under `dir` whose name starts with two digits and a dash. */
function numberedFolders(dir: string): Set<string> {
  return new Set(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && /^\d{2}-/.test(e.name))
      .map((e) => e.name),
  );
}

const known: KnownNames = {
  labs: numberedFolders(join(root, "labs")),
  solutions: numberedFolders(join(root, "solutions")),
  notebooks: new Set(listNotebooks(join(root, "notebooks")).map((f) => basename(f, ".ipynb"))),
  questionIds: new Set(QUESTION_BANK.map((q) => q.id)),
};

/** The prose of a document: a markdown file as it is, a notebook's markdown cells joined. */
function proseOf(file: string): string {
  const text = readFileSync(file, "utf8");
  if (!file.endsWith(".ipynb")) return text;
  const nb = JSON.parse(text) as { cells: Array<{ cell_type: string; source: string | string[] }> };
  return nb.cells
    .filter((c) => c.cell_type === "markdown")
    .map((c) => (Array.isArray(c.source) ? c.source.join("") : c.source))
    .join("\n");
}

const bankCounts = new Map(countByNotebook());

/** A notebook's headings as rendered (no backticks, no bold), without the leading `#`s. */
function headingsOf(notebook: string): string[] {
  const file = join(root, "notebooks", `${notebook}.ipynb`);
  if (!known.notebooks.has(notebook)) return [];
  return proseOf(file)
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => renderedSectionTitle(line.replace(/^#{1,6} /, "")));
}

describe("what the READMEs and notebooks name exists", () => {
  it("finds the labs, solutions and notebooks it compares against", () => {
    expect(known.labs.size).toBeGreaterThanOrEqual(10);
    expect([...known.labs].sort()).toEqual([...known.solutions].sort());
    expect(known.notebooks.size).toBeGreaterThanOrEqual(13);
  });

  it("every labs/NN-x, solutions/NN-x, NN-x.ipynb and NN-name in a document exists", () => {
    const problems = documentFiles(root).flatMap((file) =>
      unknownNames(proseOf(file), known).map((p) => `${relative(root, file)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it("every link to a notebook section lands on a heading of that notebook", () => {
    const problems = documentFiles(root)
      .filter((file) => file.endsWith(".md"))
      .flatMap((file) =>
        brokenSectionLinks(readFileSync(file, "utf8"), headingsOf).map(
          (p) => `${relative(root, file)}: ${p}`,
        ),
      );
    expect(problems).toEqual([]);
    expect(
      brokenSectionLinks(
        "[x](04-workqueue.ipynb#3.-The-real-one:-Queue) [y](04-workqueue.ipynb#3.-The-real-one:-Queue-under-concurrent-workers)",
        headingsOf,
      ),
    ).toEqual(["04-workqueue.ipynb#3.-The-real-one:-Queue: no such heading"]);
  });

  it("the check flags a lab, a solution, a notebook and a bare name that do not exist", () => {
    const text = [
      'diff -ru labs/03-owners solutions/03-owners; await gradeInNotebook("03-owners");',
      "see [it](notebooks/13-operators.ipynb), labs/01-watch/watcher.ts and 10-warm-standby",
    ].join("\n");
    expect(unknownNames(text, known)).toEqual([
      "labs/03-owners: no such folder",
      "solutions/03-owners: no such folder",
      "13-operators.ipynb: no such notebook",
      "03-owners: neither a lab, a notebook nor a question id",
      "13-operators: neither a lab, a notebook nor a question id",
    ]);
  });
});

describe("the READMEs' question counts come from the bank", () => {
  for (const readme of ["README.md", "notebooks/README.md"]) {
    it(`${readme}: each notebook's row counts its questions in the bank`, () => {
      const rows = questionCountRows(readFileSync(join(root, readme), "utf8"));
      expect(rows.length, "rows that link a notebook and have a questions column").toBe(bankCounts.size);
      expect(countDifferences(rows, bankCounts)).toEqual([]);
    });
  }

  it("README.md states the bank's total, by difficulty and over how many notebooks", () => {
    const stated = statedBankTotals(readFileSync(join(root, "README.md"), "utf8"));
    const by = (d: string) => QUESTION_BANK.filter((q) => q.difficulty === d).length;
    expect(
      stated,
      'README.md: "**N interview questions** (B basic, I intermediate, A advanced) over K notebooks"',
    ).toEqual({
      total: QUESTION_BANK.length,
      basic: by("basic"),
      intermediate: by("intermediate"),
      advanced: by("advanced"),
      notebooks: bankCounts.size,
    });
  });

  it("the comparison reports a wrong count, an unparsable cell and a missing row", () => {
    const table = [
      "| notebook | lab | questions |",
      "|---|---|---|",
      "| [10 · Capstone](notebooks/10-capstone-operator.ipynb) | [10-operator](labs/10-operator/README.md) | 14 |",
      "| [11 · Debugging](11-debugging-controllers.ipynb) | - | many |",
    ].join("\n");
    const rows: QuestionCountRow[] = questionCountRows(table);
    expect(rows.map((r) => r.notebook)).toEqual(["10-capstone-operator", "11-debugging-controllers"]);
    const bank = new Map([
      ["10-capstone-operator", 15],
      ["11-debugging-controllers", 17],
      ["12-interview-preparation", 18],
    ]);
    expect(countDifferences(rows, bank)).toEqual([
      "10-capstone-operator: README says 14, the bank has 15",
      "11-debugging-controllers: README says NaN, the bank has 17",
      "12-interview-preparation: no row in the table",
    ]);
    expect(statedBankTotals("The bank holds 178 questions.")).toBeUndefined();
  });
});
