/**
 * CEL's own conformance cases (the cel-spec test data shipped in `@bufbuild/cel-spec`) run in the environment CRD
 * validation rules are planned in (`validation/cel/compile.ts`): the sections whose features a rule can use
 * (basic, comparisons, conversions, integer and floating-point math, lists, logic, macros, strings, the strings
 * extension, timestamps). Cases that need protobuf messages, bindings, type checking alone or another container
 * are left out; the cases the evaluator is known to get wrong are listed by name in KNOWN_GAPS, so a regression
 * (or a fixed gap) fails this test.
 */
import { isCelError, isCelList, isCelMap, isCelType, isCelUint } from "@bufbuild/cel";
import { tests } from "@bufbuild/cel-spec/testdata/conformance.js";
import { describe, expect, it } from "vitest";
import { planExpression } from "../../../../src/control-plane/apiserver/validation/cel/compile.js";

const SECTIONS = [
  "basic",
  "comparisons",
  "conversions",
  "fp_math",
  "integer_math",
  "lists",
  "logic",
  "macros",
  "string",
  "string_ext",
  "timestamps",
];

/** Cases (section/suite/name) this evaluator answers differently from the spec. */
const KNOWN_GAPS = new Set<string>([]);

type Expected = Record<string, any>;

/** A spec `Value` (proto JSON) in a comparable form; `undefined` when this test cannot compare it. */
function expectedForm(v: Expected): unknown {
  if ("int64Value" in v) return `int:${v.int64Value}`;
  if ("uint64Value" in v) return `uint:${v.uint64Value}`;
  if ("doubleValue" in v) return `double:${Number(v.doubleValue)}`;
  if ("stringValue" in v) return `string:${v.stringValue}`;
  if ("boolValue" in v) return `bool:${v.boolValue}`;
  if ("nullValue" in v) return "null";
  if ("bytesValue" in v) return `bytes:${v.bytesValue}`;
  if ("typeValue" in v) return `type:${v.typeValue}`;
  if ("listValue" in v) {
    const items = (v.listValue.values ?? []).map(expectedForm);
    return items.includes(undefined) ? undefined : items;
  }
  if ("mapValue" in v) {
    const entries = (v.mapValue.entries ?? []).map((e: Expected) => [
      expectedForm(e.key),
      expectedForm(e.value),
    ]);
    return entries.flat().includes(undefined) ? undefined : { map: sortEntries(entries) };
  }
  return undefined;
}

function sortEntries(entries: unknown[][]): unknown[][] {
  return [...entries].sort((a, b) => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0])));
}

/** An evaluation result in the same form. */
function actualForm(v: unknown): unknown {
  if (typeof v === "bigint") return `int:${v}`;
  if (typeof v === "number") return `double:${v}`;
  if (typeof v === "string") return `string:${v}`;
  if (typeof v === "boolean") return `bool:${v}`;
  if (v === null) return "null";
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString("base64")}`;
  if (isCelType(v)) return `type:${v.name}`;
  if (isCelList(v)) return [...v].map(actualForm);
  if (isCelMap(v))
    return { map: sortEntries([...v.entries()].map(([k, x]) => [actualForm(k), actualForm(x)])) };
  if (isCelUint(v)) return `uint:${v.value}`;
  return `other:${String(v)}`;
}

interface Case {
  id: string;
  expr: string;
  expected: unknown;
  error: boolean;
}

function casesOf(suite: any, prefix: string, out: Case[]): void {
  for (const t of suite.tests ?? []) {
    const o = t.original as Expected;
    if (o.bindings || o.checkOnly || o.typeEnv || o.container || o.disableMacros) {
      continue;
    }
    const id = `${prefix}/${o.name ?? o.expr}`;
    if (o.evalError) out.push({ id, expr: o.expr, expected: undefined, error: true });
    else {
      const expected = expectedForm(o.value ?? { boolValue: true });
      if (expected !== undefined) out.push({ id, expr: o.expr, expected, error: false });
    }
  }
  for (const s of suite.suites ?? []) casesOf(s, `${prefix}/${s.name}`, out);
}

function run(c: Case): "pass" | string {
  let result: unknown;
  try {
    result = planExpression(c.expr)({});
  } catch (e) {
    return c.error ? "pass" : `threw ${(e as Error).message}`;
  }
  if (c.error)
    return isCelError(result) ? "pass" : `expected an error, got ${JSON.stringify(actualForm(result))}`;
  if (isCelError(result)) return `error ${result.message}`;
  const got = actualForm(result);
  return JSON.stringify(got) === JSON.stringify(c.expected)
    ? "pass"
    : `got ${JSON.stringify(got)}, want ${JSON.stringify(c.expected)}`;
}

describe("cel-spec conformance in the rules' environment", () => {
  for (const name of SECTIONS) {
    const section = tests.suites?.find((s) => s.name === name);
    it(`${name}: every case passes except the known gaps`, () => {
      expect(section, `section ${name}`).toBeDefined();
      const cases: Case[] = [];
      casesOf(section, name, cases);
      // Most cases compare a value; those whose value is a protobuf message are left out.
      expect(cases.length).toBeGreaterThan(10);
      const failures = cases
        .filter((c) => !KNOWN_GAPS.has(c.id))
        .map((c) => [c.id, run(c)])
        .filter(([, r]) => r !== "pass");
      const fixed = cases.filter((c) => KNOWN_GAPS.has(c.id) && run(c) === "pass").map((c) => c.id);
      expect({ failures, fixed }).toEqual({ failures: [], fixed: [] });
    });
  }
});
