/**
 * Code highlighting for the site, with highlight.js and only the languages the workbook shows (TypeScript in
 * code cells; shell, JSON, YAML and Go in markdown), so pages are coloured at build time and need no script.
 */
import { createRequire } from "node:module";
import { escapeHtml } from "./html.js";

/**
 * The part of highlight.js's API the site uses. Declared here and loaded with `require`, because the package's
 * own type declarations pull the DOM library into the whole TypeScript program (`/// <reference lib="dom" />`),
 * which replaces Node's `AbortSignal` type with an older one.
 */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  registerAliases(aliases: string[], options: { languageName: string }): void;
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

const require = createRequire(import.meta.url);
const hljs = require("highlight.js/lib/core") as Highlighter;
for (const language of ["typescript", "bash", "json", "yaml", "go"]) {
  hljs.registerLanguage(language, require(`highlight.js/lib/languages/${language}`));
}
hljs.registerAliases(["ts", "tsx", "javascript", "js"], { languageName: "typescript" });
hljs.registerAliases(["sh", "shell", "console"], { languageName: "bash" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

/**
 * `code` as highlighted HTML (the inside of a `<code class="hljs">`), or escaped as it is when `language` is
 * not one the site knows.
 */
export function highlight(code: string, language: string): string {
  const lang = language.trim().toLowerCase();
  if (!lang || !hljs.getLanguage(lang)) return escapeHtml(code);
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

/** A whole highlighted block: `<pre><code class="hljs language-x">...</code></pre>`. */
export function codeBlock(code: string, language: string): string {
  const lang = escapeHtml(language.trim().toLowerCase() || "text");
  return `<pre class="code"><code class="hljs language-${lang}">${highlight(code, language)}</code></pre>`;
}
