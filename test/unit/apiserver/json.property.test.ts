import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cloneJson, deepFreeze, jsonEqual } from "../../../src/control-plane/apiserver/json.js";

describe("cloneJson", () => {
  it("equals a JSON round trip for any value JSON can serialize", () => {
    const weird = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, new Date(0), () => 1),
      fc.dictionary(fc.constantFrom("__proto__", "constructor", "a", "toString"), fc.jsonValue()),
    );
    const arb = fc.oneof(fc.array(weird), fc.dictionary(fc.string(), weird), weird);
    fc.assert(
      fc.property(arb, (v) => {
        const copy = cloneJson(v);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
        // the copy is already pure JSON data: a second round trip changes nothing
        if (copy !== undefined) expect(jsonEqual(copy, JSON.parse(JSON.stringify(copy)))).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it("keeps __proto__ as data, copies deeply, and throws like JSON on cycles and BigInt", () => {
    const src = JSON.parse('{"__proto__":{"x":1},"a":{"b":[1,{"c":2}]}}');
    const out = cloneJson(src);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    out.a.b[1].c = 3;
    expect(src.a.b[1].c).toBe(2);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => cloneJson(cyclic)).toThrow(TypeError);
    expect(() => cloneJson({ n: 1n })).toThrow(TypeError);
    expect(cloneJson(deepFreeze({ a: [1] }))).toEqual({ a: [1] });
    expect(Object.isFrozen(cloneJson(deepFreeze({ a: [1] })))).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });
});
