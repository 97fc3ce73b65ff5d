import { describe, expect, it } from "vitest";
import {
  CheckFailure,
  expectAtLeast,
  expectAtMost,
  expectEqual,
  expectMatch,
  expectThrows,
  expectTrue,
  expectWithin,
  NotebookChecksFailed,
  notebookChecks,
} from "../../../src/workbook/grading/index.js";

/** A tracker whose output is captured as text (display: null forces the plain-text path). */
function captured(notebook = "99-test") {
  const out: string[] = [];
  const checks = notebookChecks(notebook, { display: null, write: (t) => out.push(t) });
  return { checks, out };
}

describe("expect helpers", () => {
  it("return the value when they pass", async () => {
    expect(expectEqual("n", 3, 3)).toBe(3);
    expect(expectEqual("list", [1, { a: 2 }], [1, { a: 2 }])).toEqual([1, { a: 2 }]);
    expect(expectAtMost("requests", 2, 2)).toBe(2);
    expect(expectAtLeast("watches", 1, 1)).toBe(1);
    expect(expectWithin("latency", 105, 100, 5)).toBe(105);
    expect(expectMatch("reason", "NotFound", /^Not/)).toBe("NotFound");
    expect(expectMatch("reason", "the NotFound reason", "NotFound")).toContain("NotFound");
    expectTrue("ok", true);
    const err = await expectThrows(
      "get",
      () => Promise.reject(Object.assign(new Error("HTTP 404"), { code: 404 })),
      /404/,
    );
    expect((err as Error).message).toBe("HTTP 404");
  });

  it("say what was expected and what happened when they fail", async () => {
    const failure = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err as CheckFailure;
      }
      throw new Error("did not fail");
    };
    expect(failure(() => expectEqual("ConfigMaps listed", 2, 3))).toMatchObject({
      what: "ConfigMaps listed",
      expected: "3",
      actual: "2",
      message: "ConfigMaps listed: expected 3, got 2",
    });
    expect(failure(() => expectEqual("names", ["a"], ["a", "b"])).expected).toBe('["a","b"]');
    expect(failure(() => expectAtMost("requests", 5, 2)).expected).toBe("at most 2");
    expect(failure(() => expectAtLeast("watches", 0, 1)).message).toBe("watches: expected at least 1, got 0");
    expect(failure(() => expectWithin("ms", 130, 100, 10)).expected).toBe("100 ± 10");
    expect(failure(() => expectWithin("ms", Number.NaN, 100, 10)).actual).toBe("NaN");
    expect(failure(() => expectMatch("reason", "Conflict", /NotFound/)).expected).toBe(
      "text matching /NotFound/",
    );
    expect(failure(() => expectTrue("sorted", false, "names in order", "beta before alpha")).message).toBe(
      "sorted: expected names in order, got beta before alpha",
    );
    await expect(expectThrows("get", () => 1, /404/)).rejects.toThrow(
      "expected an error matching /404/, got no error",
    );
    await expect(expectThrows("get", () => Promise.reject(new Error("500")), "404")).rejects.toBeInstanceOf(
      CheckFailure,
    );
  });
});

describe("notebookChecks", () => {
  it("counts passes and failures, keeps going after a failure, and reports where to look", async () => {
    const { checks, out } = captured("00-cluster");
    await checks.check("three ConfigMaps are listed", () => expectEqual("listed", 3, 3));
    await checks.check("the get fails with NotFound", () => expectEqual("HTTP code", 500, 404), {
      where: "section 3, the cell that reads a missing ConfigMap",
      hint: "did an injected fault stay switched on?",
    });
    await checks.check("a later check still runs", () => undefined);
    expect(checks.results.map((r) => r.status)).toEqual(["passed", "failed", "passed"]);
    const shown = [
      "✅ check passed: **three ConfigMaps are listed**",
      "❌ **check failed: the get fails with NotFound**",
      "- expected: `404`\n- got: `HTTP code: 500`",
      "- where to look: section 3, the cell that reads a missing ConfigMap\n- hint: did an injected fault stay switched on?",
    ];
    for (const part of shown) expect(out.join("\n")).toContain(part);
    expect(checks.totals).toEqual({ notebook: "00-cluster", passed: 2, failed: 1, skipped: 0, total: 3 });
  });

  it("summary prints N/M and throws a stack-free error listing the failures", async () => {
    const { checks, out } = captured("00-cluster");
    await checks.check("passes", () => undefined);
    await checks.check("fails", () => expectAtMost("requests", 9, 4), { where: "section 4" });
    let thrown: unknown;
    try {
      checks.summary();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NotebookChecksFailed);
    const err = thrown as NotebookChecksFailed;
    expect(err.message).toBe(
      "checks: 1/2 passed, 1 failed (00-cluster)\n  - fails: expected at most 4, got requests: 9 (look at section 4)",
    );
    expect(err.stack).not.toMatch(/\n\s+at /);
    expect(out).toContain("checks: 1/2 passed, 1 failed (00-cluster)");
    expect(out.join("\n")).toContain("### 1/2 checks passed: 1 failed");
  });

  it("summary passes quietly when every check passed, and skipped checks are named but not counted", async () => {
    const { checks, out } = captured();
    await checks.check("one", () => undefined);
    checks.skip("fault injection drops the watch", "this backend has no instruments");
    checks.summary();
    expect(checks.totals).toEqual({ notebook: "99-test", passed: 1, failed: 0, skipped: 1, total: 1 });
    expect(out).toContain("checks: 1/1 passed, 1 skipped (99-test)");
    expect(out.join("\n")).toContain(
      "⏭️ check skipped: **fault injection drops the watch** (this backend has no instruments)",
    );
  });

  it("re-running a check replaces its result (keyed by name); a new tracker starts from zero", async () => {
    const { checks } = captured();
    await checks.check("flaky", () => {
      throw new Error("first run");
    });
    await checks.check("other", () => undefined);
    await checks.check("flaky", () => undefined);
    expect(checks.results.map((r) => [r.name, r.status])).toEqual([
      ["flaky", "passed"],
      ["other", "passed"],
    ]);
    expect(checks.totals.total).toBe(2);
    expect(captured().checks.totals.total).toBe(0);
  });

  it("a check that throws a plain error shows its message (no stack); a hanging one times out", async () => {
    const { checks, out } = captured();
    await checks.check("type error", () => {
      throw new TypeError("cannot read properties of undefined (reading 'items')");
    });
    await checks.check("hangs", () => new Promise(() => {}), { timeout: 20 });
    const [typeError, hang] = checks.results;
    expect(typeError).toMatchObject({
      status: "failed",
      actual: "TypeError: cannot read properties of undefined (reading 'items')",
    });
    expect(hang).toMatchObject({ status: "failed", actual: "did not finish within 20 ms" });
    expect(out.join("\n")).not.toMatch(/\n\s+at /);
  });

  it("renders to a rich display as markdown when one is given", async () => {
    const shown: Array<[string, string]> = [];
    const checks = notebookChecks("99-test", { display: { raw: (type, data) => shown.push([type, data]) } });
    await checks.check("one", () => undefined);
    expect(shown).toEqual([["text/markdown", "✅ check passed: **one**\n"]]);
  });
});
