/**
 * The Kubernetes CEL libraries a CRD rule commonly calls, beyond CEL's standard functions and the strings
 * extension (`lowerAscii`, `upperAscii`, `split`, `join`, `replace`, `trim`, `substring`, `indexOf`, ... from
 * `@bufbuild/cel/ext`), after k8s.io/apiserver/pkg/cel/library:
 *
 * - lists (`lists.go`): `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)` on lists of
 *   comparable values (int, uint, double, string, bool, bytes, timestamp, duration);
 * - regex (`regex.go`): `find(re)` (the first match or ""), `findAll(re)` and `findAll(re, n)`.
 *
 * `matches` is CEL's own (RE2 semantics through `@bufbuild/re2`).
 *
 * Invariant: every function answers a value or throws an Error, which the evaluator turns into a CEL error
 * (`<message> evaluating rule: ...`); none loops longer than its list or string.
 */
import { type CelFunc, CelScalar, type CelValue, celMethod, isCelList, listType } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { RE2JS } from "@bufbuild/re2";

/** A message value (`timestamp`, `duration`) as the evaluator hands it to functions. */
interface MessageValue {
  message: { seconds: bigint; nanos: number };
}

function isMessage(v: unknown): v is MessageValue {
  return (
    typeof v === "object" && v !== null && "message" in v && typeof (v as MessageValue).message === "object"
  );
}

/** A comparable scalar as a number-like key (bigint nanoseconds for timestamps and durations). */
function comparable(v: CelValue): bigint | number | string | boolean {
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "string" || typeof v === "boolean")
    return v;
  if (isMessage(v)) return v.message.seconds * 1_000_000_000n + BigInt(v.message.nanos);
  if (typeof v === "object" && v !== null && "toBigInt" in v) return (v as { toBigInt(): bigint }).toBigInt();
  throw new Error("no such overload");
}

/** CEL ordering of two comparable values of one kind: negative, zero or positive. */
function compareValues(a: CelValue, b: CelValue): number {
  const x = comparable(a);
  const y = comparable(b);
  const numeric = (t: unknown) => typeof t === "bigint" || typeof t === "number";
  if (typeof x !== typeof y && !(numeric(x) && numeric(y))) throw new Error("no such overload");
  if (typeof x === "bigint" && typeof y === "bigint") return x < y ? -1 : x > y ? 1 : 0;
  if (numeric(x)) return Number(x) < Number(y) ? -1 : Number(x) > Number(y) ? 1 : 0;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** CEL equality of two list elements: comparable values by value (`1 == 1.0`), others by identity. */
function sameValue(a: CelValue, b: CelValue): boolean {
  try {
    return compareValues(a, b) === 0;
  } catch {
    return a === b;
  }
}

function elements(list: unknown): CelValue[] {
  if (!isCelList(list)) throw new Error("no such overload");
  return [...list];
}

const LIST = listType(CelScalar.DYN);

function extreme(name: "min" | "max", sign: number): CelFunc {
  return celMethod(name, LIST, [], CelScalar.DYN, function (this: unknown) {
    const items = elements(this);
    if (items.length === 0) throw new Error(`${name} called on empty list`);
    let best = items[0] as CelValue;
    for (const item of items.slice(1)) if (compareValues(item, best) * sign > 0) best = item;
    return best;
  });
}

/** `lists.go`: isSorted, sum, min, max, indexOf, lastIndexOf. */
export const listFunctions: CelFunc[] = [
  celMethod("isSorted", LIST, [], CelScalar.BOOL, function (this: unknown) {
    const items = elements(this);
    for (let i = 1; i < items.length; i++) {
      if (compareValues(items[i - 1] as CelValue, items[i] as CelValue) > 0) return false;
    }
    return true;
  }),
  celMethod("sum", LIST, [], CelScalar.DYN, function (this: unknown) {
    const items = elements(this);
    if (items.every((v) => typeof v === "bigint")) return (items as bigint[]).reduce((a, b) => a + b, 0n);
    if (items.every((v) => typeof v === "number")) return (items as number[]).reduce((a, b) => a + b, 0);
    throw new Error("no such overload");
  }),
  extreme("min", -1),
  extreme("max", 1),
  celMethod("indexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (this: unknown, item: CelValue) {
    return BigInt(elements(this).findIndex((v) => sameValue(v, item)));
  }),
  celMethod("lastIndexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (this: unknown, item: CelValue) {
    return BigInt(elements(this).findLastIndex((v) => sameValue(v, item)));
  }),
];

/**
 * A regular expression of a rule: checked as RE2 syntax (what `matches` uses too, `@bufbuild/re2`), then run as
 * JavaScript's (RE2's syntax is mostly JavaScript's; a pattern JavaScript cannot read is an evaluation error).
 */
function compileRegex(pattern: string): RegExp {
  try {
    RE2JS.compile(pattern);
  } catch (e) {
    throw new Error(`error parsing regexp: ${(e as Error).message}`);
  }
  for (const flags of ["gu", "g"]) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next flags
    }
  }
  throw new Error(`error parsing regexp: ${pattern}`);
}

/** `regex.go`: find and findAll. */
export const regexFunctions: CelFunc[] = [
  celMethod(
    "find",
    CelScalar.STRING,
    [CelScalar.STRING],
    CelScalar.STRING,
    function (this: string, re: string) {
      const m = compileRegex(re).exec(this);
      return m ? m[0] : "";
    },
  ),
  celMethod(
    "findAll",
    CelScalar.STRING,
    [CelScalar.STRING],
    listType(CelScalar.STRING),
    function (this: string, re: string) {
      return [...this.matchAll(compileRegex(re))].map((m) => m[0]);
    },
  ),
  celMethod(
    "findAll",
    CelScalar.STRING,
    [CelScalar.STRING, CelScalar.INT],
    listType(CelScalar.STRING),
    function (this: string, re: string, n: bigint) {
      const all = [...this.matchAll(compileRegex(re))].map((m) => m[0]);
      return n < 0n ? all : all.slice(0, Number(n));
    },
  ),
];

/** Every function a rule may call beyond CEL's standard library. */
export const kubernetesFunctions: CelFunc[] = [...strings, ...listFunctions, ...regexFunctions];

/** The names of those functions (for the compile-time check of unknown functions). */
export const kubernetesFunctionNames: ReadonlySet<string> = new Set(kubernetesFunctions.map((f) => f.name));
