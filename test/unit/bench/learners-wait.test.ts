import { describe, expect, it } from "vitest";
import {
  joinWaits,
  LONG_MEASUREMENT_TAG,
  type RunnerTimings,
  waitFigures,
} from "../../../src/tools/bench/families/learners-wait.js";
import { firstLineOf, type TslabTiming } from "../../../src/tools/bench/tslab-timings.js";

const cell = (n: number, seconds: number, tags: string[] = []) => ({
  cell: n,
  first_line: `cell ${n}`,
  seconds,
  tags,
});
const runs: RunnerTimings[] = [
  { notebook: "01-a.ipynb", kernel_start: 1.5, seconds: 4, failed: false, cells: [cell(1, 1), cell(2, 0.5)] },
  {
    notebook: "02-b.ipynb",
    kernel_start: 2,
    seconds: 30,
    failed: false,
    cells: [cell(1, 2), cell(2, 12), cell(3, 11, [LONG_MEASUREMENT_TAG])],
  },
];
const convert = (ms: number): TslabTiming => ({
  kind: "convert",
  ms,
  firstLine: "x",
  bytes: 1,
  diagnostics: 0,
});
const records: TslabTiming[] = [
  { kind: "converter", ms: 900 },
  convert(800),
  convert(100),
  { kind: "converter", ms: 1000 },
  convert(1500),
  convert(200),
  convert(300),
];

describe("the learner's wait", () => {
  it("splits each cell's wall time into tslab's compile and the run, kernel by kernel, in order", () => {
    const waits = joinWaits(runs, records);
    expect(waits.map((w) => w.converterMs)).toEqual([900, 1000]);
    expect(waits[0]?.cells.map((c) => [c.compileMs, c.runMs])).toEqual([
      [800, 200],
      [100, 400],
    ]);
    expect(waits[1]?.firstOutputMs).toBe(2000 + 2000);
    expect(waits[1]?.cells[2]?.long).toBe(true);
  });

  it("refuses records that do not match the cells run, rather than pairing them wrongly", () => {
    expect(() => joinWaits(runs, records.slice(0, 6))).toThrow(
      /02-b.ipynb: 3 cells ran but the kernel compiled 2/,
    );
    expect(() => joinWaits(runs, records.slice(0, 3))).toThrow(/2 notebooks ran but 1 tslab kernels/);
  });

  it("judges the slowest notebook's first output and counts only undeclared cells over 10 s", () => {
    const figures = waitFigures(joinWaits(runs, records), true);
    const byName = (start: string) => figures.find((f) => f.name.startsWith(start));
    expect(byName("kernel ready plus the first cell")).toMatchObject({ value: 4000, met: false });
    expect(byName("cells over 10 s")).toMatchObject({ value: 1, met: false });
    expect(byName("cells over 10 s")?.notes).toContain("02-b cell 2 (`cell 2`) 12,000 ms");
    expect(byName("the whole path headless")).toMatchObject({ value: 34, met: true });
    expect(byName("share of cell time spent compiling")?.value).toBeCloseTo((100 * 2900) / 26_500, 6);
  });

  it("names a cell by its first non-blank line, as the notebook runner does", () => {
    expect(firstLineOf("\n\n  const x = 1;\nmore")).toBe("const x = 1;");
    expect(firstLineOf("   \n")).toBe("(empty cell)");
  });
});
