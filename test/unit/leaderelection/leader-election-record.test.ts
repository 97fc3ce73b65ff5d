import { describe, expect, it } from "vitest";
import {
  formatMicroTime,
  leaseSpecToRecord,
  normalizeMicroTime,
  rawRecord,
  recordToLeaseSpec,
} from "../../../src/leaderelection/index.js";

describe("LeaderElectionRecord <-> Lease spec", () => {
  it("formats MicroTime as RFC3339 UTC with six fractional digits", () => {
    expect(formatMicroTime(Date.UTC(2026, 0, 2, 15, 4, 5, 123))).toBe("2026-01-02T15:04:05.123000Z");
    expect(() => formatMicroTime(Number.NaN)).toThrow(/MicroTime/);
  });

  it("normalises times read back from the API (fewer digits, Date objects, microseconds kept)", () => {
    expect(normalizeMicroTime("2026-01-02T15:04:05Z")).toBe("2026-01-02T15:04:05.000000Z");
    expect(normalizeMicroTime("2026-01-02T15:04:05.123456Z")).toBe("2026-01-02T15:04:05.123456Z");
    expect(normalizeMicroTime(new Date(Date.UTC(2026, 0, 2, 15, 4, 5, 7)))).toBe(
      "2026-01-02T15:04:05.007000Z",
    );
    expect(normalizeMicroTime(undefined)).toBe("");
  });

  it("maps leaseTransitions to leaderTransitions both ways and fills missing fields with zero values", () => {
    const record = {
      holderIdentity: "a",
      leaseDurationSeconds: 15,
      acquireTime: "2026-01-01T00:00:00.000000Z",
      renewTime: "2026-01-01T00:00:02.000000Z",
      leaderTransitions: 3,
    };
    const spec = recordToLeaseSpec(record);
    expect(spec.leaseTransitions).toBe(3);
    expect(leaseSpecToRecord(spec)).toEqual(record);
    expect(leaseSpecToRecord(undefined)).toEqual({
      holderIdentity: "",
      leaseDurationSeconds: 0,
      acquireTime: "",
      renewTime: "",
      leaderTransitions: 0,
    });
    expect(rawRecord(record)).not.toBe(rawRecord({ ...record, renewTime: "2026-01-01T00:00:04.000000Z" }));
  });
});
