/**
 * Mermaid front matter: the `---\nconfig: ...\n---` block that sets a diagram's own configuration (chart size,
 * layout spacing, theme variables) whatever the renderer's defaults are. JupyterLab, the static site and
 * GitHub all honour it, so a generated picture looks the same everywhere.
 */

/** A value in a front-matter config: a number, a string, a boolean, or a nested object of them. */
export type ConfigValue = string | number | boolean | { readonly [key: string]: ConfigValue | undefined };

function yamlScalar(value: string | number | boolean): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`mermaid config: numbers must be finite, got ${value}`);
    return String(value);
  }
  // JSON strings are valid YAML double-quoted scalars: "#4e79a7" stays a string, not a comment.
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function yamlLines(config: { readonly [key: string]: ConfigValue | undefined }, indent: string): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) throw new Error(`mermaid config: bad key "${key}"`);
    if (typeof value === "object") {
      const inner = yamlLines(value, `${indent}  `);
      if (inner.length > 0) lines.push(`${indent}${key}:`, ...inner);
    } else {
      lines.push(`${indent}${key}: ${yamlScalar(value)}`);
    }
  }
  return lines;
}

/**
 * The front-matter lines (fences included) that give a diagram `config`, or no lines when `config` sets nothing.
 * Keys with `undefined` values and empty objects are left out.
 */
export function mermaidFrontMatter(config: { readonly [key: string]: ConfigValue | undefined }): string[] {
  const body = yamlLines(config, "  ");
  return body.length > 0 ? ["---", "config:", ...body, "---"] : [];
}
