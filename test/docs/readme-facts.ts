/**
 * Facts the READMEs state about the repository itself, parsed so a test can compare them with the repository:
 * the labs, solutions and notebooks they name, and the question counts they print.
 */

/** The names a document may mention: lab and solution folders, notebook basenames, question ids. */
export interface KnownNames {
  labs: ReadonlySet<string>;
  solutions: ReadonlySet<string>;
  notebooks: ReadonlySet<string>;
  questionIds: ReadonlySet<string>;
}

const SLUG = String.raw`\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*`;

/**
 * What a text names that does not exist, one line each: `labs/NN-x` and `solutions/NN-x` must be folders,
 * `NN-x.ipynb` a notebook, and any other `NN-name` (as in `gradeInNotebook("08-garbage-collection")`) a lab, a
 * notebook or a question id. Write durations as "10 s", not "10-second": the latter reads as a name.
 */
export function unknownNames(text: string, known: KnownNames): string[] {
  const problems = new Set<string>();
  for (const m of text.matchAll(new RegExp(String.raw`(?<![\w.-])(labs|solutions)/(${SLUG})`, "g"))) {
    const folders = m[1] === "labs" ? known.labs : known.solutions;
    if (!folders.has(m[2]!)) problems.add(`${m[1]}/${m[2]}: no such folder`);
  }
  for (const m of text.matchAll(new RegExp(String.raw`(?<![\w-])(${SLUG})\.ipynb`, "g"))) {
    if (!known.notebooks.has(m[1]!)) problems.add(`${m[1]}.ipynb: no such notebook`);
  }
  const bare = /(?<![\w.-])(\d{2}-[a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g;
  for (const m of text.matchAll(bare)) {
    const name = m[1]!;
    if (known.labs.has(name) || known.notebooks.has(name) || known.questionIds.has(name)) continue;
    problems.add(`${name}: neither a lab, a notebook nor a question id`);
  }
  return [...problems];
}

/** One row of a README notebook table: the notebook it links to and the number in its "questions" column. */
export interface QuestionCountRow {
  notebook: string;
  count: number;
}

/**
 * The rows of every markdown table whose header has a `questions` column and whose rows link to a notebook
 * (`[01 · Title](01-watch-vs-poll.ipynb)`). A cell that is not a whole number is returned as NaN, so the
 * comparison reports it.
 */
export function questionCountRows(markdown: string): QuestionCountRow[] {
  const rows: QuestionCountRow[] = [];
  let column = -1;
  for (const line of markdown.split("\n")) {
    if (!line.trimStart().startsWith("|")) {
      column = -1;
      continue;
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim());
    const header = cells.indexOf("questions");
    if (header >= 0) {
      column = header;
      continue;
    }
    if (column < 0 || /^[-: ]+$/.test(cells.join(""))) continue;
    const link = new RegExp(String.raw`\((?:[\w./-]*/)?(${SLUG})\.ipynb\)`).exec(line);
    if (!link) continue;
    const cell = cells[column] ?? "";
    rows.push({ notebook: link[1]!, count: /^\d+$/.test(cell) ? Number(cell) : Number.NaN });
  }
  return rows;
}

/** The bank's totals as README states them: "**178 interview questions** (50 basic, 86 intermediate, ...". */
export interface BankTotals {
  total: number;
  basic: number;
  intermediate: number;
  advanced: number;
  notebooks: number;
}

/** Parses README's sentence about the bank's size; undefined when the sentence is not there. */
export function statedBankTotals(markdown: string): BankTotals | undefined {
  const m =
    /\*\*(\d+) interview questions\*\*\s+\((\d+) basic,\s+(\d+)\s+intermediate,\s+(\d+)\s+advanced\)\s+over\s+(\d+)\s+notebooks/.exec(
      markdown,
    );
  if (!m) return undefined;
  const [total, basic, intermediate, advanced, notebooks] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { total, basic, intermediate, advanced, notebooks };
}

/** Differences between what a table states and the bank's count per notebook, one line each. */
export function countDifferences(
  rows: readonly QuestionCountRow[],
  bank: ReadonlyMap<string, number>,
): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    const actual = bank.get(row.notebook) ?? 0;
    if (row.count !== actual)
      problems.push(`${row.notebook}: README says ${row.count}, the bank has ${actual}`);
  }
  for (const notebook of bank.keys()) {
    if (!rows.some((r) => r.notebook === notebook)) problems.push(`${notebook}: no row in the table`);
  }
  return problems;
}

/**
 * Links to a notebook section (`[06 §3](06-status-that-tells-the-truth.ipynb#3.-409-Conflict,-...)`) whose anchor is
 * not a heading of that notebook. JupyterLab's anchor is the rendered heading with spaces as dashes; a link to a
 * missing anchor opens the notebook at the top.
 */
export function brokenSectionLinks(markdown: string, headings: (notebook: string) => string[]): string[] {
  const problems: string[] = [];
  for (const m of markdown.matchAll(
    new RegExp(String.raw`\((?:[\w./-]*/)?(${SLUG})\.ipynb#([^)\s]+)\)`, "g"),
  )) {
    const anchor = decodeURIComponent(m[2]!);
    const anchors = headings(m[1]!).map((h) => h.replace(/ /g, "-"));
    if (!anchors.includes(anchor)) problems.push(`${m[1]}.ipynb#${m[2]}: no such heading`);
  }
  return problems;
}
