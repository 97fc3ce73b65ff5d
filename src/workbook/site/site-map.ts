/**
 * Which file of the repository becomes which page of the site, and how a link written in one of those files
 * (`[lab](../labs/03-queue/README.md)`, `[next](01-watch.ipynb)`) is rewritten to point at the page instead.
 * Paths are repository-relative with `/`, whatever the platform.
 */
import { posix } from "node:path";

/** The page a repository file becomes, or undefined when it has none (source files, solutions). */
export function pageOf(repoFile: string): string | undefined {
  const notebook = /^notebooks\/([^/]+)\.ipynb$/.exec(repoFile);
  if (notebook) return `notebooks/${notebook[1]}.html`;
  if (repoFile === "labs/README.md") return "labs/index.html";
  const lab = /^labs\/([^/]+)\/README\.md$/.exec(repoFile);
  if (lab) return `labs/${lab[1]}.html`;
  if (repoFile === "README.md" || repoFile === "notebooks/README.md") return "index.html";
  return undefined;
}

/** What a link becomes: a link to a page of the site (or elsewhere), or a mention of a repository file. */
export type RewrittenLink = { href: string } | { repoFile: string };

/**
 * Rewrites `href` found in `repoFile` (shown as the page `sitePage`): external links, anchors and mail links
 * stay; a link to a file that has a page points at that page (relative to `sitePage`, anchor kept); a link to
 * any other repository file becomes `{ repoFile }`, which the page shows as the path (the site has no copy of it).
 */
export function rewriteLink(repoFile: string, sitePage: string, href: string): RewrittenLink {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("//")) return { href };
  const [path = "", ...rest] = href.split("#");
  const anchor = rest.length > 0 ? `#${rest.join("#")}` : "";
  const target = posix.normalize(posix.join(posix.dirname(repoFile), decodeURI(path)));
  if (target.startsWith("..")) return { href };
  const page = pageOf(target) ?? pageOf(posix.join(target, "README.md"));
  if (!page) return { repoFile: target.replace(/\/$/, "") };
  const relative = posix.relative(posix.dirname(sitePage), page);
  return { href: `${relative}${anchor}` };
}

/** The relative path from `sitePage` to the site's root (`""` at the root, `"../"` one folder down). */
export function toRoot(sitePage: string): string {
  const depth = sitePage.split("/").length - 1;
  return "../".repeat(depth);
}
