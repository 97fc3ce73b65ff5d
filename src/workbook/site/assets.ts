/**
 * The site's static files: its stylesheet and page script (written here), mermaid's browser bundle and
 * highlight.js's GitHub colour schemes (copied from the project's own node_modules, so the site needs no CDN).
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The page script: draws every `<pre class="mermaid">` with mermaid in the reader's light or dark scheme, then
 * marks `<body data-diagrams="done">` (or `"error"`, after logging why) so a test can wait for the drawing.
 */
export const SITE_SCRIPT = `(async () => {
  const diagrams = document.querySelectorAll("pre.mermaid");
  const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
  try {
    if (diagrams.length > 0) {
      mermaid.initialize({ startOnLoad: false, theme: dark ? "dark" : "default", securityLevel: "strict" });
      await mermaid.run({ nodes: diagrams });
    }
    document.body.dataset.diagrams = "done";
  } catch (err) {
    document.body.dataset.diagrams = "error";
    console.error("a diagram could not be drawn:", err);
  }
})();
`;

/** The stylesheet: readable measure, light and dark schemes, code and outputs set apart, answers folded. */
export const SITE_CSS = `:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --code-bg: #f6f8fa;
  --accent: #0969da; --ok: #1a7f37; --bad: #cf222e; --out-bg: #fbfbfb;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --code-bg: #151b23;
    --accent: #4493f8; --ok: #3fb950; --bad: #f85149; --out-bg: #10151c;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.6 system-ui, -apple-system, "Segoe UI",
  "DejaVu Sans", sans-serif; }
a { color: var(--accent); }
nav.site { display: flex; gap: 1.25rem; align-items: baseline; padding: 0.75rem 1.5rem;
  border-bottom: 1px solid var(--line); }
nav.site a { text-decoration: none; }
nav.site a.home { font-weight: 600; color: var(--fg); margin-right: auto; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1, h2, h3 { line-height: 1.25; }
code { font: 0.9em ui-monospace, "DejaVu Sans Mono", monospace; background: var(--code-bg); padding: 0.1em 0.3em;
  border-radius: 4px; }
pre { overflow-x: auto; }
pre.code { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem;
  margin: 0.5rem 0; }
pre.code code, pre.output { background: none; padding: 0; font: 14px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
table { border-collapse: collapse; margin: 0.75rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.7rem; text-align: left; }
.cell { margin: 1rem 0; }
.cell.code .prompt { color: var(--muted); font: 12px ui-monospace, monospace; }
.outputs { border-left: 3px solid var(--line); padding: 0.25rem 0 0.25rem 1rem; margin: 0.25rem 0 1rem;
  background: var(--out-bg); }
pre.output { margin: 0.4rem 0; white-space: pre-wrap; word-break: break-word; }
pre.output.stderr { color: #9a6700; }
pre.output.error { color: var(--bad); }
pre.mermaid { background: none; border: none; text-align: center; margin: 1rem 0; }
pre.mermaid:not([data-processed]) { color: var(--muted); font-size: 12px; }
details { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.8rem; margin: 0.75rem 0; }
details > summary { cursor: pointer; font-weight: 600; }
details.long-output { border-style: dashed; }
a.repo-file { color: inherit; text-decoration: underline dotted; cursor: help; }
.badge { display: inline-block; font-size: 0.8rem; padding: 0.05rem 0.5rem; border-radius: 999px;
  border: 1px solid var(--line); color: var(--muted); margin-right: 0.4rem; }
.badge.ok { color: var(--ok); border-color: var(--ok); }
.badge.bad { color: var(--bad); border-color: var(--bad); }
.cards { list-style: none; padding: 0; }
.cards li { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
.cards h3 { margin: 0 0 0.25rem; }
.cards p { margin: 0.4rem 0 0; color: var(--muted); }
.pager { display: flex; justify-content: space-between; border-top: 1px solid var(--line); margin-top: 2rem;
  padding-top: 1rem; }
.question .meta { color: var(--muted); font-size: 0.9rem; }
`;

/** Writes the stylesheet and script, and copies mermaid and the highlight.js colour schemes, into `out/assets`. */
export function writeAssets(out: string): void {
  const assets = join(out, "assets");
  mkdirSync(assets, { recursive: true });
  writeFileSync(join(assets, "site.css"), SITE_CSS);
  writeFileSync(join(assets, "site.js"), SITE_SCRIPT);
  const require = createRequire(import.meta.url);
  const mermaidDir = dirname(require.resolve("mermaid"));
  copyFileSync(join(mermaidDir, "mermaid.min.js"), join(assets, "mermaid.min.js"));
  const styles = join(dirname(require.resolve("highlight.js/package.json")), "styles");
  copyFileSync(join(styles, "github.min.css"), join(assets, "highlight-light.css"));
  copyFileSync(join(styles, "github-dark.min.css"), join(assets, "highlight-dark.css"));
}
