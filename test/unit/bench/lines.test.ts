import { describe, expect, it } from "vitest";
import { lineSplitter } from "../../../src/tools/bench/lines.js";

describe("lineSplitter", () => {
  it("gives each complete line once, however the chunks cut them, and keeps a partial line for later", () => {
    const lines: string[] = [];
    const push = lineSplitter((line) => lines.push(line));
    for (const chunk of ['{"a":', '1}\n{"b":2}\n{"c"', ":3}\n\n", '{"d":4}']) push(chunk);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', ""]);
    push("\n");
    expect(lines.at(-1)).toBe('{"d":4}');
  });
});
