/**
 * A strict applier of unified diffs (as `diff -u` writes them), for the wrong-answer suite: each wrong answer is
 * a small patch on a reference solution. Strict on purpose: every context and removed line must stand where the
 * hunk says, so a solution that changed under an answer is reported ("rebase the answer"), never patched by guess.
 */

/** One hunk: where it starts in the old file (1-based) and its lines, each with its ' ', '-' or '+' marker. */
interface Hunk {
  oldStart: number;
  lines: string[];
}

/** The hunks of each file a patch changes, by the path after `+++ b/`. */
export function parseUnifiedDiff(patch: string): Map<string, Hunk[]> {
  const files = new Map<string, Hunk[]>();
  let hunks: Hunk[] | undefined;
  let hunk: Hunk | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("--- ")) continue;
    if (line.startsWith("+++ ")) {
      hunks = [];
      files.set(line.slice(4).replace(/^b\//, "").trim(), hunks);
      hunk = undefined;
    } else if (line.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
      if (!m || !hunks) throw new Error(`not a unified diff hunk header: ${line}`);
      hunk = { oldStart: Number(m[1]), lines: [] };
      hunks.push(hunk);
    } else if (hunk && /^[ +-]/.test(line)) hunk.lines.push(line);
    else if (hunk && line === "\\ No newline at end of file") continue;
  }
  return files;
}

/** `text` with the hunks applied; throws, naming the line, when a hunk does not match the text exactly. */
export function applyHunks(text: string, hunks: readonly Hunk[], name: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let next = 0; // index in `lines` of the first line not yet copied
  for (const hunk of hunks) {
    // A hunk that only adds lines to an empty region names the line before it (oldStart may be 0).
    const start = hunk.lines.some((l) => l[0] !== "+") ? hunk.oldStart - 1 : hunk.oldStart;
    if (start < next) throw new Error(`${name}: hunks overlap at line ${hunk.oldStart}`);
    out.push(...lines.slice(next, start));
    let at = start;
    for (const l of hunk.lines) {
      if (l[0] === "+") {
        out.push(l.slice(1));
        continue;
      }
      if (lines[at] !== l.slice(1))
        throw new Error(
          `${name}: line ${at + 1} is "${lines[at] ?? "(end of file)"}", the patch expects "${l.slice(1)}"`,
        );
      if (l[0] === " ") out.push(lines[at]!);
      at++;
    }
    next = at;
  }
  out.push(...lines.slice(next));
  return out.join("\n");
}
