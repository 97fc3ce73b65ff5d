import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from "../../../src/controller/index.js";

describe("ControllerExpectations", () => {
  it("is satisfied for a key it never heard of", () => {
    expect(new ControllerExpectations().satisfiedExpectations("ns/rs")).toBe(true);
  });

  it("blocks a key until every expected creation is observed", () => {
    const e = new ControllerExpectations();
    e.expectCreations("ns/rs", 3);
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
    e.creationObserved("ns/rs");
    e.creationObserved("ns/rs");
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
    expect(e.getExpectations("ns/rs")).toMatchObject({ add: 1, del: 0 });
    e.creationObserved("ns/rs");
    expect(e.satisfiedExpectations("ns/rs")).toBe(true);
    expect(e.satisfiedExpectations("ns/other")).toBe(true);
  });

  it("counts deletions separately from creations", () => {
    const e = new ControllerExpectations();
    e.expectDeletions("ns/rs", 2);
    e.creationObserved("ns/rs");
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
    e.deletionObserved("ns/rs");
    e.deletionObserved("ns/rs");
    expect(e.satisfiedExpectations("ns/rs")).toBe(true);
  });

  it("treats an unmet record as satisfied once it is older than the timeout, and set restarts the timer", async () => {
    const clock = new FakeClock();
    const e = new ControllerExpectations({ clock });
    e.expectCreations("ns/rs", 1);
    await clock.advance(EXPECTATIONS_TIMEOUT_MS);
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
    await clock.advance(1);
    expect(e.satisfiedExpectations("ns/rs")).toBe(true);
    e.expectCreations("ns/rs", 1);
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
  });

  it("raise and lower change an existing record only, and keep its timer", async () => {
    const clock = new FakeClock();
    const e = new ControllerExpectations({ clock, timeoutMs: 1000 });
    e.raiseExpectations("ns/none", 5, 0);
    e.lowerExpectations("ns/none", 5, 0);
    expect(e.getExpectations("ns/none")).toBeUndefined();
    e.expectCreations("ns/rs", 1);
    const started = e.getExpectations("ns/rs")?.timestamp;
    await clock.advance(600);
    e.raiseExpectations("ns/rs", 2, 1);
    expect(e.getExpectations("ns/rs")).toMatchObject({ add: 3, del: 1, timestamp: started });
    e.lowerExpectations("ns/rs", 3, 1);
    expect(e.satisfiedExpectations("ns/rs")).toBe(true);
  });

  it("forgets a key on deleteExpectations, and getExpectations returns a copy", () => {
    const e = new ControllerExpectations();
    e.expectCreations("ns/rs", 2);
    const copy = e.getExpectations("ns/rs");
    if (copy) copy.add = 0;
    expect(e.satisfiedExpectations("ns/rs")).toBe(false);
    e.deleteExpectations("ns/rs");
    expect(e.getExpectations("ns/rs")).toBeUndefined();
    expect(e.satisfiedExpectations("ns/rs")).toBe(true);
  });
});
