/**
 * A JSON parser that also reports duplicate keys, the one thing `JSON.parse` hides and kube-apiserver's strict
 * decoder reports (`duplicate field "data"`). Values are what `JSON.parse` gives, except that a repeated key
 * whose two values are both objects merges them, as Go's encoding/json decodes a repeated struct or map field
 * into the value it already holds; anything else takes the last value. `__proto__` keys stay plain data.
 */

/**
 * Nesting deeper than this is not followed: the parse fails with {@link JsonTooDeepError} and the caller falls
 * back to `JSON.parse` (no duplicate report), keeping the parser's recursion stack-safe.
 */
export const MAX_DUPLICATE_SCAN_DEPTH = 1_000;

/** A parse failure, with JSON.parse-like wording. */
export class JsonSyntaxError extends Error {
  override readonly name = "JsonSyntaxError";
}

/** The text nests deeper than {@link MAX_DUPLICATE_SCAN_DEPTH}. */
export class JsonTooDeepError extends Error {
  override readonly name = "JsonTooDeepError";
}

/** What {@link parseJsonReportingDuplicates} returns. */
export interface ParsedJson {
  value: unknown;
  /** Paths of repeated keys (`metadata.name`, `spec.containers[0].image`), in document order. */
  duplicates: string[];
}

/** Parses JSON text; throws {@link JsonSyntaxError} on malformed input. */
export function parseJsonReportingDuplicates(text: string): ParsedJson {
  const p = new Parser(text);
  p.space();
  const value = p.value("", 0);
  p.space();
  if (p.i < text.length) p.fail("Unexpected non-whitespace character after JSON");
  return { value, duplicates: p.duplicates };
}

class Parser {
  i = 0;
  readonly duplicates: string[] = [];

  constructor(private readonly s: string) {}

  fail(why: string): never {
    throw new JsonSyntaxError(`${why} at position ${this.i}`);
  }

  space(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  value(path: string, depth: number): unknown {
    if (depth > MAX_DUPLICATE_SCAN_DEPTH)
      throw new JsonTooDeepError(`nested more than ${MAX_DUPLICATE_SCAN_DEPTH} levels`);
    const c = this.s[this.i];
    if (c === "{") return this.object(path, depth);
    if (c === "[") return this.array(path, depth);
    if (c === '"') return this.string();
    return this.literal();
  }

  object(path: string, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    this.space();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s[this.i] !== '"') this.fail("Expected double-quoted property name");
      const key = this.string();
      this.space();
      if (this.s[this.i] !== ":") this.fail("Expected ':' after property name");
      this.i++;
      this.space();
      const at = path === "" ? key : `${path}.${key}`;
      const value = this.value(at, depth + 1);
      if (Object.hasOwn(out, key)) {
        this.duplicates.push(at);
        const before = out[key];
        if (isObject(before) && isObject(value))
          for (const [k, v] of Object.entries(value)) define(before, k, v);
        else define(out, key, value);
      } else define(out, key, value);
      this.space();
      const c = this.s[this.i];
      this.i++;
      if (c === "}") return out;
      if (c !== ",") this.fail("Expected ',' or '}' after property value");
      this.space();
    }
  }

  array(path: string, depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.space();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${path}[${out.length}]`, depth + 1));
      this.space();
      const c = this.s[this.i];
      this.i++;
      if (c === "]") return out;
      if (c !== ",") this.fail("Expected ',' or ']' after array element");
      this.space();
    }
  }

  string(): string {
    const s = this.s;
    const start = this.i;
    let j = start + 1;
    // Fast path: no escapes.
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
      j++;
    }
    if (s.charCodeAt(j) === 0x22) {
      this.i = j + 1;
      return s.slice(start + 1, j);
    }
    // Slow path: find the closing quote, let JSON.parse decode the escapes.
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === 0x5c) j += 2;
      else if (c === 0x22) break;
      else j++;
    }
    if (j >= s.length) {
      this.i = s.length;
      this.fail("Unterminated string in JSON");
    }
    this.i = j + 1;
    try {
      return JSON.parse(s.slice(start, j + 1)) as string;
    } catch (err) {
      this.i = start;
      return this.fail(
        (err as Error).message.replace(/ in JSON at position \d+.*$/, "").replace(/ at position \d+.*$/, ""),
      );
    }
  }

  literal(): unknown {
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.s.slice(this.i, this.i + 400),
    );
    if (!m) {
      if (this.i >= this.s.length) this.fail("Unexpected end of JSON input");
      this.fail(`Unexpected token '${this.s[this.i]}'`);
    }
    this.i += m[0].length;
    return JSON.parse(m[0]);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
