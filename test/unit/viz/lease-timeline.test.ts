import { describe, expect, it } from "vitest";
import {
  type LeaseEvent,
  leaseEventsFromWrites,
  leaseTimeline,
  leaseTimelineModel,
  PALETTE,
} from "../../../src/workbook/viz/index.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

const T0 = Date.UTC(2026, 0, 1);
const at = (ms: number) => T0 + ms;

/** c1 leads and renews twice, crashes; c2 takes over once the lease expired; c3 never leads. */
const crashThenTakeover: LeaseEvent[] = [
  { at: at(0), candidate: "c1", kind: "acquired" },
  { at: at(200), candidate: "c1", kind: "renewed" },
  { at: at(400), candidate: "c1", kind: "renewed" },
  { at: at(500), candidate: "c1", kind: "crashed" },
  { at: at(1_450), candidate: "c2", kind: "acquired" },
  { at: at(1_650), candidate: "c2", kind: "renewed" },
];

describe("lease timeline model", () => {
  it("draws a crashed leader's lease as left behind until it expires, then the takeover", () => {
    const model = leaseTimelineModel({
      events: crashThenTakeover,
      leaseDurationMs: 1_000,
      candidates: ["c1", "c2", "c3"],
      end: at(2_000),
    });
    expect(model.candidates).toEqual(["c1", "c2", "c3"]);
    expect(model.bars).toEqual([
      { candidate: "c1", kind: "leading", from: at(0), to: at(500), renewals: 2 },
      { candidate: "c2", kind: "leading", from: at(1_450), to: at(2_000), renewals: 1 },
      { candidate: "c1", kind: "left-behind", from: at(500), to: at(1_400), renewals: 0 },
    ]);
    expect(model.marks.filter((m) => m.kind !== "renewed")).toEqual([
      { candidate: "c1", kind: "crashed", at: at(500) },
      { candidate: "c1", kind: "expired", at: at(1_400) },
    ]);
    expect(model.overlaps).toEqual([]);
  });

  it("a release hands over at once: no lease left behind, no expiry", () => {
    const model = leaseTimelineModel({
      events: [
        { at: at(0), candidate: "a", kind: "acquired" },
        { at: at(300), candidate: "a", kind: "stopped" },
        { at: at(310), candidate: "a", kind: "released" },
        { at: at(400), candidate: "b", kind: "acquired" },
      ],
      leaseDurationMs: 1_000,
    });
    expect(model.bars.filter((b) => b.kind === "left-behind")).toEqual([
      { candidate: "a", kind: "left-behind", from: at(300), to: at(310), renewals: 0 },
    ]);
    expect(model.marks.map((m) => m.kind)).toEqual(["stopped", "released"]);
    expect(model.end).toBe(at(400));
  });

  it("a renewal that lands after its writer stopped extends the lease left behind, not the leadership", () => {
    const model = leaseTimelineModel({
      events: [
        { at: at(0), candidate: "a", kind: "acquired" },
        { at: at(700), candidate: "a", kind: "stopped" },
        { at: at(800), candidate: "a", kind: "renewed" },
        { at: at(2_000), candidate: "b", kind: "acquired" },
      ],
      leaseDurationMs: 1_000,
      end: at(2_500),
    });
    expect(model.bars.filter((b) => b.candidate === "a")).toEqual([
      { candidate: "a", kind: "leading", from: at(0), to: at(700), renewals: 0 },
      { candidate: "a", kind: "left-behind", from: at(700), to: at(1_800), renewals: 0 },
    ]);
    expect(model.overlaps).toEqual([]);
  });

  it("finds the moments with two leaders", () => {
    const model = leaseTimelineModel({
      events: [
        { at: at(0), candidate: "a", kind: "acquired" },
        { at: at(100), candidate: "b", kind: "acquired" },
        { at: at(250), candidate: "a", kind: "stopped" },
      ],
      leaseDurationMs: 1_000,
      end: at(400),
    });
    expect(model.overlaps).toEqual([{ from: at(100), to: at(250), leaders: ["a", "b"] }]);
  });

  it("reads acquisitions, renewals and releases from the Lease's successive writes", () => {
    const t = (ms: number) => new Date(at(ms)).toISOString().replace("Z", "000Z");
    expect(
      leaseEventsFromWrites([
        { holderIdentity: "a", acquireTime: t(0), renewTime: t(0) },
        { holderIdentity: "a", acquireTime: t(0), renewTime: t(200) },
        { holderIdentity: "", renewTime: t(300) },
        { holderIdentity: "b", acquireTime: t(350), renewTime: t(350) },
        { holderIdentity: "c", acquireTime: new Date(at(900)), renewTime: new Date(at(900)) },
      ]),
    ).toEqual([
      { at: at(0), candidate: "a", kind: "acquired" },
      { at: at(200), candidate: "a", kind: "renewed" },
      { at: at(300), candidate: "a", kind: "released" },
      { at: at(350), candidate: "b", kind: "acquired" },
      { at: at(900), candidate: "c", kind: "acquired" },
    ]);
  });

  it("rejects a lease duration that is not positive", () => {
    expect(() => leaseTimelineModel({ events: [], leaseDurationMs: 0 })).toThrow(/leaseDurationMs/);
  });
});

describe("lease timeline mermaid", () => {
  it("parses, with one section per candidate, the leader's colour and relative times", async () => {
    const source = leaseTimeline({
      title: "Lease demo: crash at 0.5 s",
      events: crashThenTakeover,
      leaseDurationMs: 1_000,
      candidates: ["c1", "c2", "c3"],
      end: at(2_000),
    });
    expect(await mermaidParseError(source)).toBeUndefined();
    const lines = source.split("\n");
    expect(lines).toContain("gantt");
    expect(lines).toContain("  dateFormat x");
    expect(lines).toContain("  tickInterval 250millisecond");
    expect(lines.filter((l) => l.startsWith("  section "))).toEqual([
      "  section c1",
      "  section c2",
      "  section c3",
    ]);
    expect(lines).toContain("    leads :active, t0, 0, 500ms");
    expect(lines).toContain("    lease left behind :done, t1, 500, 900ms");
    expect(lines).toContain("    expires :crit, milestone, t5, 1400, 0ms");
    expect(source).toContain(`activeTaskBkgColor: "${PALETTE.leader.fill}"`);
    expect(source).toContain(`critBkgColor: "${PALETTE.error.fill}"`);
    expect(source).toContain("title Lease demo crash at 0.5 s");
    // A fixed width: mermaid would take the width of JupyterLab's hidden render element (the whole window).
    expect(lines).toContain("    useWidth: 880");
  });

  it("counts renewals in the label when there are too many to mark, and adds a two-leaders row", async () => {
    const events: LeaseEvent[] = [{ at: at(0), candidate: "a", kind: "acquired" }];
    for (let i = 1; i <= 20; i++) events.push({ at: at(i * 100), candidate: "a", kind: "renewed" });
    events.push({ at: at(500), candidate: "b", kind: "acquired" });
    const source = leaseTimeline({ events, leaseDurationMs: 1_000, end: at(70_000) });
    expect(await mermaidParseError(source)).toBeUndefined();
    expect(source).toContain("leads, 20 renewals :active");
    expect(source).not.toContain("renew :milestone");
    expect(source).toContain("  section two leaders\n    a and b :crit");
    expect(source).toContain("axisFormat %M:%S");
  });

  it("a task line without its data does not parse (the parse check has teeth)", async () => {
    expect(await mermaidParseError("gantt\n  dateFormat x\n  section a\n    leads active t0")).toBeDefined();
  });
});
