/**
 * The depth bound on request bodies: measured on the text before anything parses or walks it (the Go scanner's
 * 10,000 levels and its words past them; the embedded server's own 1,000 below that), and on decoded values
 * (YAML apply bodies, patch results) without recursion.
 */
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import {
  nestingTooDeep,
  parseObjectBody,
  parsePatch,
} from "../../../src/control-plane/apiserver/http/body.js";
import {
  findNestingPastLimit,
  MAX_BODY_DEPTH,
  nestedDeeperThan,
} from "../../../src/control-plane/apiserver/json.js";

const arrays = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const objects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error("expected a StatusError");
}

describe("findNestingPastLimit", () => {
  it("finds the bracket that opens the first level past the limit, counting the outermost value as level 1", () => {
    expect(findNestingPastLimit(arrays(5), 5)).toBeUndefined();
    expect(findNestingPastLimit(arrays(6), 5)).toEqual({ bracket: "[", at: 5 });
    expect(findNestingPastLimit(objects(6), 5)).toEqual({ bracket: "{", at: 25 });
    // Siblings do not add up: depth is per path.
    expect(findNestingPastLimit(`[${Array(20).fill("[[]]").join(",")}]`, 3)).toBeUndefined();
  });

  it("skips brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[[[[[[[[[[{{{{{{{{", b: 'x\\"[[[[[[[[[[[[', c: [[1]] });
    expect(findNestingPastLimit(text, 3)).toBeUndefined();
    expect(findNestingPastLimit(text, 2)).toEqual({ bracket: "[", at: text.lastIndexOf("[[") + 1 });
  });
});

describe("nestedDeeperThan", () => {
  it("measures a decoded value as the text check measures its JSON", () => {
    for (const levels of [1, 2, MAX_BODY_DEPTH, MAX_BODY_DEPTH + 1]) {
      const value = JSON.parse(arrays(levels));
      expect(nestedDeeperThan(value, MAX_BODY_DEPTH)).toBe(levels > MAX_BODY_DEPTH);
      expect(findNestingPastLimit(arrays(levels), MAX_BODY_DEPTH) !== undefined).toBe(
        levels > MAX_BODY_DEPTH,
      );
    }
    expect(nestedDeeperThan("x", 0)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(arrays(200_000)), MAX_BODY_DEPTH)).toBe(true);
  });

  it("walks a shared child once per depth, so YAML-style aliasing is not exponential", () => {
    // 80 levels, each holding its child twice: 2^80 paths, 80 distinct nodes.
    let node: unknown = { leaf: true };
    for (let i = 0; i < 80; i++) node = { left: node, right: node };
    const started = Date.now();
    expect(nestedDeeperThan(node, 100)).toBe(false);
    expect(nestedDeeperThan(node, 50)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("request bodies nested too deeply", () => {
  it("past 10,000 levels: the Go scanner's words, after each verb's kube-apiserver prefix", () => {
    const body = `{"metadata":{"name":"d"},"extra":${arrays(10_000)}}`;
    expect(nestingTooDeep(body)).toBe("invalid character '[' exceeded max depth");
    const create = thrown(() => parseObjectBody(Buffer.from(body), "ConfigMap"));
    expect([create.code, create.reason, create.message]).toEqual([
      400,
      "BadRequest",
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"metadata":{"name":"d"},"extr ...)`,
    ]);
    const patch = `{"extra":${objects(10_001)}}`;
    expect(thrown(() => parsePatch(Buffer.from(patch), "application/merge-patch+json")).message).toBe(
      "error decoding patch: invalid character '{' exceeded max depth",
    );
    expect(
      thrown(() => parsePatch(Buffer.from(patch), "application/strategic-merge-patch+json")).message,
    ).toBe("invalid character '{' exceeded max depth");
    expect(thrown(() => parsePatch(Buffer.from(patch), "application/apply-patch+yaml")).message).toBe(
      "error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000",
    );
  });

  it("between 1,000 and 10,000 levels: refused as the embedded server's own limit, and said so", () => {
    const at = `{"extra":${arrays(MAX_BODY_DEPTH - 1)}}`;
    const past = `{"extra":${arrays(MAX_BODY_DEPTH)}}`;
    expect(parseObjectBody(Buffer.from(at), "ConfigMap").value).toEqual(JSON.parse(at));
    const err = thrown(() => parseObjectBody(Buffer.from(past), "ConfigMap"));
    expect(err.code).toBe(400);
    expect(err.message).toContain("exceeded max depth of 1000 (the embedded API server's limit");
  });

  it("a YAML apply body: js-yaml stops at 100 levels; aliases that stack deeper are measured once loaded", () => {
    const yaml = (levels: number) =>
      `apiVersion: v1\nkind: ConfigMap\nextra:\n${Array.from({ length: levels }, (_, i) => `${"  ".repeat(i + 1)}a:`).join("\n")} 1\n`;
    expect(parsePatch(Buffer.from(yaml(10)), "application/apply-patch+yaml")).toMatchObject({
      kind: "ConfigMap",
    });
    const parser = thrown(() => parsePatch(Buffer.from(yaml(150)), "application/apply-patch+yaml"));
    expect([parser.code, parser.message]).toMatchObject([
      400,
      expect.stringContaining("nesting exceeded maxDepth (100)"),
    ]);
    // Each anchor nests 80 flow levels around the previous alias: 15 of them reach 1,200 levels.
    const chain = Array.from({ length: 15 }, (_, i) => {
      const inner = i === 0 ? "1" : `*a${i - 1}`;
      return `l${i}: &a${i} ${"[".repeat(80)}${inner}${"]".repeat(80)}`;
    }).join("\n");
    const aliased = thrown(() =>
      parsePatch(Buffer.from(`kind: ConfigMap\n${chain}\n`), "application/apply-patch+yaml"),
    );
    expect([aliased.code, aliased.message]).toEqual([
      400,
      `error decoding YAML: exceeded max depth of ${MAX_BODY_DEPTH} (the embedded API server's limit)`,
    ]);
    const flow = `a: ${"[".repeat(200_000)}`;
    expect(thrown(() => parsePatch(Buffer.from(flow), "application/apply-patch+yaml")).code).toBe(400);
  });
});
