import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import {
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionTrue,
  removeStatusCondition,
  type StatusCondition,
  setStatusCondition,
} from "../../../src/controller/index.js";

describe("status conditions", () => {
  it("adds a condition with lastTransitionTime = now (RFC 3339, seconds)", () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0, 750));
    const conds: StatusCondition[] = [];
    expect(setStatusCondition(conds, { type: "Ready", status: "False", reason: "Creating" }, clock)).toBe(
      true,
    );
    expect(conds).toEqual([
      { type: "Ready", status: "False", reason: "Creating", lastTransitionTime: "2026-01-01T12:00:00Z" },
    ]);
  });

  it("changes lastTransitionTime only when status changes", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const conds: StatusCondition[] = [];
    setStatusCondition(
      conds,
      { type: "Ready", status: "False", reason: "Creating", observedGeneration: 1 },
      clock,
    );
    await clock.advance(60_000);
    // Same status, new reason/message/generation: changed, but no transition.
    expect(
      setStatusCondition(
        conds,
        { type: "Ready", status: "False", reason: "Waiting", message: "1/3 ready", observedGeneration: 2 },
        clock,
      ),
    ).toBe(true);
    expect(findStatusCondition(conds, "Ready")).toMatchObject({
      reason: "Waiting",
      message: "1/3 ready",
      observedGeneration: 2,
      lastTransitionTime: "2026-01-01T00:00:00Z",
    });
    await clock.advance(60_000);
    expect(
      setStatusCondition(
        conds,
        { type: "Ready", status: "True", reason: "Ready", observedGeneration: 2 },
        clock,
      ),
    ).toBe(true);
    expect(findStatusCondition(conds, "Ready")?.lastTransitionTime).toBe("2026-01-01T00:02:00Z");
    expect(isStatusConditionTrue(conds, "Ready")).toBe(true);
    expect(isStatusConditionFalse(conds, "Ready")).toBe(false);
  });

  it("reports no change for an identical condition (so a no-op status write can be skipped)", () => {
    const conds: StatusCondition[] = [];
    const c: StatusCondition = {
      type: "Ready",
      status: "True",
      reason: "Ok",
      message: "",
      observedGeneration: 3,
    };
    setStatusCondition(conds, c);
    expect(setStatusCondition(conds, { ...c })).toBe(false);
    expect(conds).toHaveLength(1);
  });

  it("removes by type and validates input", () => {
    const conds: StatusCondition[] = [];
    setStatusCondition(conds, { type: "A", status: "True", reason: "R" });
    setStatusCondition(conds, { type: "B", status: "Unknown", reason: "R" });
    expect(removeStatusCondition(conds, "A")).toBe(true);
    expect(removeStatusCondition(conds, "A")).toBe(false);
    expect(conds.map((c) => c.type)).toEqual(["B"]);
    expect(() => setStatusCondition(conds, { type: "C", status: "Yes" as "True", reason: "R" })).toThrow(
      /status/,
    );
    expect(() => setStatusCondition(conds, { type: "", status: "True", reason: "R" })).toThrow(/type/);
    expect(() => setStatusCondition(conds, { type: "C", status: "True", reason: "" })).toThrow(/reason/);
  });
});
