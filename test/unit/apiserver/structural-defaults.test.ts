/** Structural schema defaulting, the cases apiextensions-apiserver's `defaulting` package tests. */
import { describe, expect, it } from "vitest";
import {
  applyDefaults,
  type DefaultingSchema,
  defaultedCopy,
  hasDefaults,
  pruneNonNullableNulls,
} from "../../../src/control-plane/apiserver/registry/structural-defaults.js";

const schema: DefaultingSchema = {
  type: "object",
  properties: {
    a: { type: "string", default: "A" },
    b: { type: "string", nullable: true, default: "B" },
    c: { type: "string" },
    d: { type: "string", nullable: true },
    obj: {
      type: "object",
      properties: { x: { type: "integer", default: 7 } },
      default: {},
    },
    list: { type: "array", items: { type: "integer", default: 0 } },
    map: { type: "object", additionalProperties: { type: "string", default: "v" } },
  },
};

/** Prune then default, in the decoder's order. */
function run(value: unknown): unknown {
  pruneNonNullableNulls(value, schema);
  applyDefaults(value, schema);
  return value;
}

describe("structural defaults", () => {
  it("defaults absent and non-nullable null properties; keeps nullable nulls; drops nulls with no default", () => {
    expect(run({ a: null, b: null, c: null, d: null })).toEqual({ a: "A", b: null, d: null, obj: { x: 7 } });
  });

  it("defaults inside a defaulted parent, array items and map values that are null, and copies every default", () => {
    const one = run({ list: [1, null], map: { k: null, j: "set" } }) as { obj: object };
    expect(one).toEqual({ a: "A", b: "B", obj: { x: 7 }, list: [1, 0], map: { k: "v", j: "set" } });
    const two = run({}) as { obj: object };
    expect(two.obj).not.toBe(one.obj);
  });

  it("reads: a defaulted copy, the stored object untouched; only schemas with a default need it", () => {
    const stored = Object.freeze({ c: "x" });
    expect(defaultedCopy(stored, schema)).toEqual({ a: "A", b: "B", c: "x", obj: { x: 7 } });
    expect(stored).toEqual({ c: "x" });
    expect(hasDefaults(schema)).toBe(true);
    expect(
      hasDefaults({ type: "object", properties: { s: { type: "object", items: { type: "string" } } } }),
    ).toBe(false);
  });
});
