import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository root: this module lives in src/workbook/viz/ (or dist/workbook/viz/ once built). */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The text of one declaration in one of the package's TypeScript files, with its TSDoc: a top-level
 * `function`, `class`, `const`, `interface` or `type`, or a method of a class (`"EventRecorder.write"`).
 * `file` is relative to the repository root (`"src/controller/enqueue-handler.ts"`). The notebooks use it to
 * show a piece of the real implementation next to the cell that uses it, read from the file, never copied.
 */
export function sourceOf(file: string, name: string): string {
  const lines = readFileSync(`${ROOT}${file}`, "utf8").split("\n");
  const [outer, method] = name.split(".") as [string, string | undefined];
  const declares = (line: string, id: string, indent: string) =>
    new RegExp(
      `^${indent}(export\\s+)?(default\\s+)?(async\\s+)?(function\\*?|class|const|let|interface|type|abstract class)\\s+${id}\\b`,
    ).test(line);
  let start = lines.findIndex((l) => declares(l, outer, ""));
  if (start < 0) throw new Error(`${file} declares no ${outer}`);
  let indent = "";
  if (method) {
    const inner = lines.findIndex(
      (l, i) =>
        i > start &&
        new RegExp(`^  (public |private |protected )?(static )?(async )?(readonly )?${method}\\b`).test(l),
    );
    if (inner < 0) throw new Error(`${file}: ${outer} has no member ${method}`);
    start = inner;
    indent = "  ";
  }
  // The declaration ends on its first line (`type X = ...;`) or at the first line back at its indentation
  // that only closes a bracket.
  const closes = new RegExp(`^${indent}[}\\])];?$`);
  let end = start;
  if (!lines[start]!.trim().endsWith(";")) while (end < lines.length && !closes.test(lines[end]!)) end++;
  let from = start;
  if (lines[from - 1]?.trim().endsWith("*/") || lines[from - 1]?.trim().startsWith("//")) {
    while (
      from > 0 &&
      !lines[from - 1]!.trim().startsWith("/**") &&
      !lines[from - 1]!.trim().startsWith("//")
    )
      from--;
    from--;
  }
  return lines.slice(from, end + 1).join("\n");
}

/**
 * Markdown that shows declarations of the package folded under `summary` (a `<details>` block): a ```ts block
 * per name and a link to the file. The link sits inside the fold, not in the summary: a click on the summary
 * opens the fold and never follows a link. See {@link sourceOf} for `file` and the names.
 */
export function sourceMarkdown(file: string, names: readonly string[], summary: string): string {
  const code = names.map((n) => sourceOf(file, n)).join("\n\n");
  return `<details><summary>${summary} (${file})</summary>\n\nFrom [${file}](../${file}):\n\n\`\`\`ts\n${code}\n\`\`\`\n\n</details>`;
}
