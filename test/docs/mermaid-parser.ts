/**
 * Parses mermaid sources with the real mermaid package in Node. Mermaid sanitises labels with DOMPurify, which
 * needs a DOM at import time, so a jsdom window is installed first (only if none exists).
 */
type Mermaid = { parse(text: string): Promise<unknown> };

let loading: Promise<Mermaid> | undefined;

async function load(): Promise<Mermaid> {
  const g = globalThis as Record<string, unknown>;
  if (!g.window) {
    const { JSDOM } = await import("jsdom");
    const dom = new JSDOM("<!doctype html><html><body></body></html>");
    g.window = dom.window;
    g.document = dom.window.document;
  }
  const mod = (await import("mermaid")) as unknown as { default: Mermaid };
  return mod.default;
}

/** Resolves to undefined when `source` parses, or to mermaid's error message when it does not. */
export async function mermaidParseError(source: string): Promise<string | undefined> {
  loading ??= load();
  const mermaid = await loading;
  try {
    await mermaid.parse(source);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
