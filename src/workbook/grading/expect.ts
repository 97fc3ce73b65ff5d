/**
 * Small assertions for notebook checks and lab graders. Each one throws a {@link CheckFailure} that carries
 * what was expected and what was observed as separate fields, so a failed check can be shown to a learner as
 * "expected ... / got ..." instead of a stack trace. They return the observed value, so a check can go on
 * using it.
 */

/** A failed expectation: `expected` and `actual` are already phrased for a learner. */
export class CheckFailure extends Error {
  constructor(
    /** What was measured, in words: "ConfigMaps listed". */
    readonly what: string,
    /** The expectation, in words: "3", "at most 2", "matching /NotFound/". */
    readonly expected: string,
    /** What was observed, in words. */
    readonly actual: string,
  ) {
    super(`${what}: expected ${expected}, got ${actual}`);
    this.name = "CheckFailure";
  }
}

/** How a value is written in a failure message: strings quoted, objects as compact JSON, short. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (value instanceof RegExp) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Passes when `actual` equals `expected` (deep, for plain objects and arrays). */
export function expectEqual<T>(what: string, actual: T, expected: T): T {
  if (!sameValue(actual, expected)) {
    throw new CheckFailure(what, describeValue(expected), describeValue(actual));
  }
  return actual;
}

/** Passes when `actual <= max`: "at most 2 requests". */
export function expectAtMost(what: string, actual: number, max: number): number {
  if (!(actual <= max)) throw new CheckFailure(what, `at most ${max}`, describeValue(actual));
  return actual;
}

/** Passes when `actual >= min`: "at least one watch open". */
export function expectAtLeast(what: string, actual: number, min: number): number {
  if (!(actual >= min)) throw new CheckFailure(what, `at least ${min}`, describeValue(actual));
  return actual;
}

/** Passes when `actual` is within `tolerance` of `target` (inclusive): timings, rates, ratios. */
export function expectWithin(what: string, actual: number, target: number, tolerance: number): number {
  if (!(Math.abs(actual - target) <= tolerance)) {
    throw new CheckFailure(what, `${target} ± ${tolerance}`, describeValue(actual));
  }
  return actual;
}

/** Passes when `text` matches `pattern` (a RegExp, or a substring that must appear). */
export function expectMatch(what: string, text: string, pattern: RegExp | string): string {
  const ok = typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
  if (!ok) {
    const expected =
      typeof pattern === "string" ? `text containing ${JSON.stringify(pattern)}` : `text matching ${pattern}`;
    throw new CheckFailure(what, expected, describeValue(text));
  }
  return text;
}

/** Passes when `condition` is true; `expected` and `actual` say in words what should hold and what did. */
export function expectTrue(what: string, condition: boolean, expected = "true", actual = "false"): void {
  if (!condition) throw new CheckFailure(what, expected, actual);
}

/**
 * Passes when `action` throws (or rejects) with an error whose message, or `code`/`reason`, matches
 * `pattern`; returns the error. For checks like "reading a deleted object fails with NotFound".
 */
export async function expectThrows(
  what: string,
  action: () => unknown,
  pattern: RegExp | string,
): Promise<unknown> {
  let thrown: unknown;
  try {
    await action();
  } catch (err) {
    thrown = err;
  }
  if (thrown === undefined) throw new CheckFailure(what, `an error matching ${String(pattern)}`, "no error");
  const e = thrown as { message?: unknown; code?: unknown; body?: unknown };
  const text = [e.message, e.code, typeof e.body === "string" ? e.body : JSON.stringify(e.body)]
    .filter((x) => x !== undefined)
    .join(" ");
  const ok = typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
  if (!ok) throw new CheckFailure(what, `an error matching ${String(pattern)}`, describeValue(text));
  return thrown;
}
