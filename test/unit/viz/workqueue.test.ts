import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { PALETTE, stateClassDef, workqueueDiagram } from "../../../src/workbook/viz/index.js";
import { RateLimitingQueue } from "../../../src/workqueue/index.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

/** The node lines of one subgraph, by its id, as `[text]` label strings. */
function column(src: string, id: string): string[] {
  const lines = src.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`  subgraph ${id}[`));
  expect(start, `subgraph ${id}`).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "  end") break;
    const m = /^ {4}(\w+)\["(.*)"\]$/.exec(line);
    if (m) out.push(`${m[1]}=${m[2]}`);
  }
  return out;
}

function classOf(src: string, state: string): string[] {
  const m = new RegExp(`^ {2}class (\\S+) ${state}$`, "m").exec(src);
  return m ? m[1]!.split(",") : [];
}

describe("workqueueDiagram", () => {
  it("draws a live queue's waiting, queued, processing and dirty keys, and parses", async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    try {
      q.add("ns/a");
      q.add("ns/b");
      const got = await q.get(); // ns/a -> processing
      expect(got.item).toBe("ns/a");
      q.add("ns/a"); // re-added while processing: parked in dirty
      q.addAfter("ns/c", 40);
      const src = workqueueDiagram(q, { now: clock.now() });
      expect(await mermaidParseError(src)).toBeUndefined();
      expect(column(src, "waiting")).toEqual(["waiting_0=ns/c<br/>in 40 ms"]);
      expect(column(src, "queued")).toEqual(["queued_0=ns/b"]);
      expect(column(src, "processing")).toEqual(["processing_0=ns/a"]);
      expect(column(src, "dirty").sort()).toEqual(["dirty_0=ns/b", "dirty_1=ns/a<br/>parked"]);
      expect(src).toContain('subgraph queued["queue (FIFO): 1"]');
      expect(src).toContain('subgraph dirty["dirty set: 2"]');
      // queued = diverged (orange), processing = active (teal), from the palette.
      expect(src).toContain(stateClassDef("diverged"));
      expect(src).toContain(stateClassDef("active"));
      expect(src).toContain(PALETTE.diverged.fill);
      expect(classOf(src, "diverged")).toEqual(["queued_0", "dirty_0"]);
      expect(classOf(src, "active")).toEqual(["processing_0", "dirty_1"]);
    } finally {
      q.shutDown();
    }
  });

  it("marks empty columns, caps long ones and draws without a countdown when no time is given", async () => {
    const keys = Array.from({ length: 9 }, (_, i) => `k${i}`);
    const src = workqueueDiagram(
      { queue: keys, dirty: keys, processing: [], waiting: [{ item: "w", readyAt: 20_000 }] },
      { maxKeys: 3 },
    );
    expect(await mermaidParseError(src)).toBeUndefined();
    expect(column(src, "processing")).toEqual(["processing_empty=(empty)"]);
    expect(column(src, "queued")).toEqual([
      "queued_0=k0",
      "queued_1=k1",
      "queued_2=k2",
      "queued_more=+6 more",
    ]);
    expect(src).toContain('subgraph queued["queue (FIFO): 9"]');
    expect(column(src, "waiting")).toEqual(["waiting_0=w"]);
    expect(classOf(src, "active")).toEqual([]);
    const later = workqueueDiagram(
      { queue: [], dirty: [], processing: [], waiting: [{ item: "w", readyAt: 20_000 }] },
      { now: 5_000 },
    );
    expect(column(later, "waiting")).toEqual(["waiting_0=w<br/>in 15 s"]);
  });

  it("escapes hostile keys and rejects a bad cap", async () => {
    const src = workqueueDiagram({ queue: ['a"b<c>'], dirty: ['a"b<c>'], processing: ["end"] });
    expect(await mermaidParseError(src)).toBeUndefined();
    expect(() => workqueueDiagram({ queue: [], dirty: [], processing: [] }, { maxKeys: 0 })).toThrow(
      /maxKeys/,
    );
  });
});
