/** The Kubernetes CEL libraries (lists, regex, strings) and the helpers rules are typed and reported with. */
import { isCelError, isCelList } from "@bufbuild/cel";
import { describe, expect, it } from "vitest";
import { planExpression } from "../../../../src/control-plane/apiserver/validation/cel/compile.js";
import { goDurationNanos } from "../../../../src/control-plane/apiserver/validation/cel/duration.js";
import { normalizeFieldPath } from "../../../../src/control-plane/apiserver/validation/cel/field-path.js";
import { escapeProperty } from "../../../../src/control-plane/apiserver/validation/cel/values.js";

function evaluate(expr: string): unknown {
  const v = planExpression(expr)({});
  if (isCelError(v)) return `error: ${v.message}`;
  return isCelList(v) ? [...v] : v;
}

describe("Kubernetes CEL libraries", () => {
  it.each([
    ["[1, 2, 2, 5].isSorted()", true],
    ["['b', 'a'].isSorted()", false],
    ["[1, 2, 3].sum()", 6n],
    ["[1.5, 2.0].sum()", 3.5],
    ["[3, 1, 2].min()", 1n],
    ["['a', 'c', 'b'].max()", "c"],
    ["[1, 2, 1].indexOf(1)", 0n],
    ["[1, 2, 1].lastIndexOf(1)", 2n],
    ["[1, 2].indexOf(3)", -1n],
    ["[1, 2].indexOf(2.0)", 1n],
    ["[duration('1h'), duration('1m')].min() == duration('1m')", true],
    ["'abc 123 def 456'.find('[0-9]+')", "123"],
    ["'abc'.find('[0-9]+')", ""],
    ["'abc 123 def 456'.findAll('[0-9]+')", ["123", "456"]],
    ["'a1b2c3'.findAll('[0-9]', 2)", ["1", "2"]],
    ["'Hello'.lowerAscii() + 'x'.upperAscii()", "helloX"],
    ["'a,b'.split(',').join('-')", "a-b"],
    ["'  x '.trim()", "x"],
    ["'abc'.matches('^a.c$')", true],
  ])("%s", (expr, want) => {
    expect(evaluate(expr)).toEqual(want);
  });

  it("reports library errors as CEL errors, never throws", () => {
    expect(evaluate("[].min()")).toBe("error: min called on empty list");
    expect(evaluate("'x'.find('(')")).toMatch(/^error: error parsing regexp/);
    expect(evaluate("[1, 'a'].isSorted()")).toMatch(/^error: /);
  });
});

describe("rule helpers", () => {
  it("parses Go durations", () => {
    expect(goDurationNanos("1h30m")).toBe(5_400_000_000_000n);
    expect(goDurationNanos("-1.5s")).toBe(-1_500_000_000n);
    expect(goDurationNanos("300ms")).toBe(300_000_000n);
    expect(goDurationNanos("1d")).toBeUndefined();
  });

  it("escapes property names as CEL field names", () => {
    expect(escapeProperty("a-b.c/d__e")).toBe("a__dash__b__dot__c__slash__d__underscores__e");
    expect(escapeProperty("namespace")).toBe("__namespace__");
    expect(escapeProperty("1abc")).toBeUndefined();
  });

  it("normalizes fieldPath against the schema", () => {
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            "a.b": { type: "string" },
            m: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    };
    expect(normalizeFieldPath(".spec['a.b']", schema)).toBe("spec.a.b");
    expect(normalizeFieldPath(".spec.m['k']", schema)).toBe("spec.m[k]");
    expect(normalizeFieldPath(".spec.nope", schema)).toBeUndefined();
  });
});
