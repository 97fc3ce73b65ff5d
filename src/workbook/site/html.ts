/**
 * The one HTML rule every page of the site follows: text from notebooks, READMEs and the question bank is
 * escaped before it lands in markup, unless it is markdown rendered by markdown.ts (which escapes for itself).
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe inside an element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Terminal colour codes (tslab's error traces have them), removed. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is exactly what is being removed.
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
}
