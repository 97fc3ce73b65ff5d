import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  clientGoPeerSource,
  clientGoVersionOf,
  findClientGoPeer,
  sourceHash,
} from "../../../src/tools/bench/peers/client-go.js";

const saved = { PATH: process.env.PATH, WORKBOOK_PEER_CACHE: process.env.WORKBOOK_PEER_CACHE };

afterEach(() => {
  process.env.PATH = saved.PATH;
  if (saved.WORKBOOK_PEER_CACHE === undefined) delete process.env.WORKBOOK_PEER_CACHE;
  else process.env.WORKBOOK_PEER_CACHE = saved.WORKBOOK_PEER_CACHE;
});

describe("the client-go peer", () => {
  it("pins client-go, and every k8s.io module at one release", () => {
    const goMod = readFileSync(join(clientGoPeerSource(), "go.mod"), "utf8");
    expect(clientGoVersionOf(goMod)).toBe("v0.37.2");
    const k8s = [...goMod.matchAll(/^\s*k8s\.io\/(api|apimachinery|client-go)\s+(v\S+)/gm)].map((m) => m[2]);
    expect(new Set(k8s)).toEqual(new Set(["v0.37.2"]));
  });

  it("caches by a hash of its source, so an edited program is rebuilt, never run stale", () => {
    const h = sourceHash(clientGoPeerSource());
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(sourceHash(clientGoPeerSource())).toBe(h);
  });

  it("says why it is missing when there is no Go toolchain and no cached build", async () => {
    const empty = mkdtempSync(join(tmpdir(), "peer-cache-"));
    try {
      process.env.WORKBOOK_PEER_CACHE = empty;
      process.env.PATH = empty;
      const lookup = await findClientGoPeer({ build: true });
      expect(lookup.peer).toBeUndefined();
      expect(lookup.missing).toMatch(/no Go toolchain on PATH/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
