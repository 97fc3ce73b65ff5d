/**
 * The frame of every page: head (styles, no favicon request), a navigation bar, the content, and the two
 * scripts that draw the page's mermaid diagrams from the site's own copy of mermaid (no CDN: works offline).
 */
import { escapeHtml } from "./html.js";
import { toRoot } from "./site-map.js";

/** A page to write: where it goes in the site, its title, and its content (HTML). */
export interface PageSpec {
  /** Site-relative path, `notebooks/00-cluster.html`. */
  path: string;
  title: string;
  body: string;
}

/** The site's name, in every title and the navigation bar. */
export const SITE_NAME = "kube-controller-workbook";

/** The whole HTML document of a page. */
export function renderPage(spec: PageSpec): string {
  const root = toRoot(spec.path);
  const title = spec.path === "index.html" ? SITE_NAME : `${spec.title} · ${SITE_NAME}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}assets/site.css">
<link rel="stylesheet" href="${root}assets/highlight-light.css" media="(prefers-color-scheme: light)">
<link rel="stylesheet" href="${root}assets/highlight-dark.css" media="(prefers-color-scheme: dark)">
</head>
<body>
<nav class="site">
<a class="home" href="${root}index.html">${SITE_NAME}</a>
<a href="${root}index.html#notebooks">Notebooks</a>
<a href="${root}labs/index.html">Labs</a>
<a href="${root}questions.html">Questions</a>
</nav>
<main>
${spec.body}
</main>
<script src="${root}assets/mermaid.min.js"></script>
<script src="${root}assets/site.js"></script>
</body>
</html>
`;
}
