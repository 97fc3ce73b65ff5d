import { describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import { validateListOptions } from "../../../src/control-plane/apiserver/registry/list-view.js";
import { encodeContinue } from "../../../src/control-plane/apiserver/storage/continue-token.js";
import { resolveListPosition } from "../../../src/control-plane/apiserver/storage/list-revision.js";
import type { ListOptions } from "../../../src/control-plane/apiserver/types.js";

const CURRENT = 100;
const COMPACTED = 50;

function outcome(opts: ListOptions): string {
  try {
    validateListOptions(opts);
    const p = resolveListPosition(opts, CURRENT, COMPACTED);
    return `rev ${p.rev}${p.start ? ` from ${p.start}` : ""}`;
  } catch (err) {
    if (err instanceof StatusError) return String(err.code);
    throw err;
  }
}

describe("which revision a LIST reads (the resourceVersion table)", () => {
  it.each<[ListOptions, string]>([
    [{}, "rev 100"],
    [{ resourceVersion: "0" }, "rev 100"],
    [{ resourceVersion: "0", limit: 5 }, "rev 100"],
    [{ resourceVersion: "70" }, "rev 100"],
    [{ resourceVersion: "70", resourceVersionMatch: "NotOlderThan", limit: 5 }, "rev 100"],
    [{ resourceVersion: "70", limit: 5 }, "rev 70"],
    [{ resourceVersion: "70", resourceVersionMatch: "Exact" }, "rev 70"],
    [{ resourceVersion: "40", resourceVersionMatch: "Exact" }, "410"],
    [{ resourceVersion: "40", limit: 5 }, "410"],
    [{ resourceVersion: "40" }, "rev 100"],
    [{ resourceVersion: "101" }, "504"],
    [{ resourceVersion: "0", resourceVersionMatch: "Exact" }, "422"],
    [{ resourceVersionMatch: "Exact" }, "422"],
    [{ resourceVersion: "x" }, "400"],
    [{ continue: encodeContinue({ rev: 60, start: "ns/b" }) }, "rev 60 from ns/b"],
    [{ continue: encodeContinue({ rev: 40, start: "ns/b" }) }, "410"],
    [{ continue: encodeContinue({ rev: 60, start: "ns/b" }), resourceVersion: "60" }, "400"],
    [{ continue: "%%%" }, "400"],
  ])("%j -> %s", (opts, expected) => {
    expect(outcome(opts)).toBe(expected);
  });
});

describe("resourceVersion=0 lists are served whole", () => {
  it("ignores limit for resourceVersion=0 (no continue token), as the watch cache does; honours it otherwise", () => {
    expect(resolveListPosition({ resourceVersion: "0", limit: 5 }, 100, 50).limit).toBe(0);
    expect(resolveListPosition({ limit: 5 }, 100, 50).limit).toBe(5);
    expect(resolveListPosition({ resourceVersion: "70", limit: 5 }, 100, 50).limit).toBe(5);
  });
});
