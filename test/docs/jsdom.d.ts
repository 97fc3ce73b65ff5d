/** The one piece of jsdom the mermaid parser needs (jsdom ships no types; @types/jsdom is not worth a dependency). */
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { document: unknown } & Record<string, unknown>;
  }
}
