/**
 * Markdown to HTML for the site (markdown-it): GitHub-style tables, raw HTML kept (model answers are
 * `<details>` blocks), code fences highlighted at build time, ```mermaid fences left as `<pre class="mermaid">`
 * for the page's own mermaid to draw, and links rewritten by site-map.ts.
 */
import MarkdownIt from "markdown-it";
import { codeBlock } from "./code.js";
import { escapeHtml } from "./html.js";
import { rewriteLink } from "./site-map.js";

/** Where the markdown comes from and where it is shown, so its relative links can be rewritten. */
export interface MarkdownSource {
  /** The repository file the text is from (`notebooks/00-cluster.ipynb`, `labs/README.md`). */
  repoFile: string;
  /** The site page it appears on (`notebooks/00-cluster.html`). */
  sitePage: string;
}

/** A diagram for the page's mermaid: escaped source in `<pre class="mermaid">` (mermaid reads the text). */
export function mermaidBlock(source: string): string {
  return `<pre class="mermaid">${escapeHtml(source.trim())}</pre>`;
}

const md = new MarkdownIt({ html: true, linkify: false, typographer: false });

md.renderer.rules.fence = (tokens, index) => {
  const token = tokens[index]!;
  const language = token.info.trim().split(/\s+/)[0] ?? "";
  return language === "mermaid"
    ? `${mermaidBlock(token.content)}\n`
    : `${codeBlock(token.content, language)}\n`;
};

md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const href = token.attrGet("href");
  const source = env as Partial<MarkdownSource> | undefined;
  if (href && source?.repoFile && source.sitePage) {
    const link = rewriteLink(source.repoFile, source.sitePage, String(href));
    if ("href" in link) token.attrSet("href", link.href);
    else {
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== "href");
      token.attrSet("class", "repo-file");
      token.attrSet("title", `in the repository: ${String(link.repoFile)}`);
    }
  }
  return self.renderToken(tokens, index, options);
};

/** `text` (markdown) as HTML, with links rewritten for where it is shown. */
export function renderMarkdown(text: string, source: MarkdownSource): string {
  return md.render(text, { ...source });
}
