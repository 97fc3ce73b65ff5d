import { describe, expect, it } from "vitest";
import { parseFieldSelector } from "../../../src/apimachinery/selectors/field-selector.js";
import {
  parseLabelSelector,
  SelectorParseError,
} from "../../../src/apimachinery/selectors/label-selector.js";

describe("label selector parser", () => {
  it("parses every operator", () => {
    expect(parseLabelSelector("a=1, b==2,c!=3,d in (x, y),e notin (z),f,!g,h>5,i<7").requirements).toEqual([
      { key: "a", operator: "=", values: ["1"] },
      { key: "b", operator: "=", values: ["2"] },
      { key: "c", operator: "!=", values: ["3"] },
      { key: "d", operator: "in", values: ["x", "y"] },
      { key: "e", operator: "notin", values: ["z"] },
      { key: "f", operator: "exists", values: [] },
      { key: "g", operator: "!", values: [] },
      { key: "h", operator: "gt", values: ["5"] },
      { key: "i", operator: "lt", values: ["7"] },
    ]);
    expect(parseLabelSelector("example.com/tier=").requirements).toEqual([
      { key: "example.com/tier", operator: "=", values: [""] },
    ]);
    expect(parseLabelSelector("  ").empty).toBe(true);
  });

  it("matches label sets", () => {
    const s = parseLabelSelector("env in (prod,staging),!legacy,replicas>2");
    expect(s.matches({ env: "prod", replicas: "3" })).toBe(true);
    expect(s.matches({ env: "prod", replicas: "2" })).toBe(false);
    expect(s.matches({ env: "dev", replicas: "3" })).toBe(false);
    expect(s.matches({ env: "prod", replicas: "3", legacy: "" })).toBe(false);
    expect(parseLabelSelector("a!=b").matches(undefined)).toBe(true);
    expect(parseLabelSelector("constructor").matches({})).toBe(false);
  });

  it.each(["a in b", "a in (", "a in ()", "=b", "a=b c", "a,", "bad key!=1", "a=bad value!", "a>x", "a=(b)"])(
    "rejects %j",
    (input) => {
      expect(() => parseLabelSelector(input)).toThrow(SelectorParseError);
    },
  );
});

describe("field selector parser", () => {
  const fields = ["metadata.name", "metadata.namespace", "status.phase"];
  it("parses =, == and != with escapes", () => {
    const s = parseFieldSelector("metadata.name=a\\,b,status.phase!=Running", fields);
    expect(s.requirements).toEqual([
      { field: "metadata.name", negate: false, value: "a,b" },
      { field: "status.phase", negate: true, value: "Running" },
    ]);
    expect(s.matches({ "metadata.name": "a,b", "status.phase": "Pending" })).toBe(true);
    expect(s.matches({ "metadata.name": "a,b", "status.phase": "Running" })).toBe(false);
    expect(parseFieldSelector("metadata.name==x", fields).matches({ "metadata.name": "x" })).toBe(true);
  });

  it("rejects unsupported fields and garbage", () => {
    expect(() => parseFieldSelector("spec.nodeName=x", fields)).toThrow(
      '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(() => parseFieldSelector("nonsense", fields)).toThrow(SelectorParseError);
  });
});
