import { mermaidFrontMatter } from "./front-matter.js";
import { mermaidLabel } from "./mermaid-text.js";
import { SERIES_INKS } from "./theme.js";

/** One plotted series of an {@link xyChart}: a line or bars, one value per x position. */
export interface XySeries {
  kind: "line" | "bar";
  values: readonly number[];
  /**
   * Its colour: a meaning's ink (`PALETTE.error.ink`, `PALETTE.converged.ink`...) when the series has one;
   * default: the next of {@link SERIES_INKS}. Bar series are drawn over each other, so a second bar series with
   * zeros where the first has values colours single bars (failures in red among successes).
   */
  ink?: string;
}

/** Options of {@link xyChart}. */
export interface XyChartSpec {
  title?: string;
  /**
   * The x positions: category names, or numbers. Many evenly spaced numbers under lines only (write 1..60,
   * seconds 0..30) become a numeric axis with a few round ticks; anything else is one label per position.
   */
  x: ReadonlyArray<string | number>;
  xLabel?: string;
  yLabel?: string;
  /**
   * Fixed y range. Default: from zero (or the lowest value, when negative) to the highest when there are bars (a
   * bar's length is its value only if the axis starts at zero), else mermaid scales to the data.
   */
  yRange?: readonly [number, number];
  series: readonly XySeries[];
  /** Draw bars horizontally (long category names read better). */
  horizontal?: boolean;
  /**
   * Size in pixels (mermaid's xyChart `width`/`height` config, set in the diagram's front matter). The width
   * grows to fit a long title, the height is at least 240 so the axis titles (the units) are kept.
   */
  width?: number;
  height?: number;
}

/**
 * The lowest height drawn, in px. Mermaid gives the plot half the height and fits the title, the axis labels and
 * the axis title into the other half; below this it silently drops the axis title, and with it the unit.
 */
const MIN_HEIGHT = 240;

/** Mermaid's xyChart width when none is set, in px. */
const MERMAID_DEFAULT_WIDTH = 700;

/**
 * The width to draw at: the one asked for (or mermaid's default), widened so the title fits. Mermaid draws the
 * title on one line at 20 px (about 10.5 px a character) and cuts it at the chart's edge, so a long title on a
 * narrow chart would lose its end, often the part that names the colours. Undefined: mermaid's default fits.
 */
function chartWidth(spec: XyChartSpec): number | undefined {
  const titleWidth = spec.title ? Math.ceil(spec.title.length * 10.5) + 20 : 0;
  if (titleWidth <= (spec.width ?? MERMAID_DEFAULT_WIDTH)) return spec.width;
  return titleWidth;
}

/**
 * True when the category labels under a vertical chart would run into each other (about 7.6 px a character at
 * mermaid's 14 px, 100 px of the width for the y axis): they are then drawn turned by 45 degrees.
 */
function labelsCollide(spec: XyChartSpec, width: number): boolean {
  if (spec.horizontal || linearRange(spec)) return false;
  const longest = Math.max(...spec.x.map((x) => String(x).length));
  return spec.x.length * (longest * 7.6 + 8) > width - 100;
}

/** The y range to draw: the one asked for, else from zero for bars (see {@link XyChartSpec.yRange}). */
function yRange(spec: XyChartSpec): readonly [number, number] | undefined {
  if (spec.yRange || !spec.series.some((s) => s.kind === "bar")) return spec.yRange;
  const values = spec.series.flatMap((s) => s.values);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  return [low, high > low ? high : low + 1];
}

/**
 * The chart's front matter: its size, and the theme's inks as mermaid's plot palette (one colour per series, in
 * order) on a transparent background, so the chart sits on the notebook's own light or dark page.
 */
function frontMatter(spec: XyChartSpec): string[] {
  const inks = spec.series.map((s, i) => s.ink ?? SERIES_INKS[i % SERIES_INKS.length]!);
  const width = chartWidth(spec);
  const height = spec.height === undefined ? undefined : Math.max(MIN_HEIGHT, spec.height);
  return mermaidFrontMatter({
    xyChart: {
      xAxis: labelsCollide(spec, width ?? MERMAID_DEFAULT_WIDTH) ? { labelRotation: 45 } : undefined,
      width: width === undefined ? undefined : Number(formatNumber(width)),
      height: height === undefined ? undefined : Number(formatNumber(height)),
    },
    themeVariables: { xyChart: { plotColorPalette: inks.join(", "), backgroundColor: "transparent" } },
  });
}

/**
 * More positions than this on a category axis and their labels run into each other (about 60 px a label at a
 * notebook's width): such an axis is drawn numeric when {@link linearRange} allows.
 */
const MAX_CATEGORY_LABELS = 15;

/**
 * `[first, last]` when `x` can be drawn as a numeric axis instead of one label per position: more positions than
 * fit as labels, all numbers, evenly spaced and increasing (mermaid spreads a series' values evenly between the
 * axis' ends), and only line series (mermaid's bars need a category axis). Otherwise undefined.
 */
function linearRange(spec: XyChartSpec): readonly [number, number] | undefined {
  const x = spec.x;
  if (x.length <= MAX_CATEGORY_LABELS || spec.series.some((s) => s.kind !== "line")) return undefined;
  if (!x.every((v): v is number => typeof v === "number" && Number.isFinite(v))) return undefined;
  const first = x[0]!;
  const last = x[x.length - 1]!;
  const step = (last - first) / (x.length - 1);
  if (!(step > 0)) return undefined;
  const even = x.every((v, i) => Math.abs(v - (first + i * step)) <= step * 0.01);
  return even ? [first, last] : undefined;
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`xyChart: values must be finite numbers, got ${n}`);
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

/**
 * Mermaid `xychart-beta` source: e.g. a backoff curve (attempt -> delay) or a latency series, coloured from the
 * theme. Every series must have exactly one value per x position; anything else is an error rather than a
 * silently skewed plot. Name the units in the axis labels ("delay (ms)").
 */
export function xyChart(spec: XyChartSpec): string {
  if (spec.x.length === 0) throw new Error("xyChart: needs at least one x position");
  if (spec.series.length === 0) throw new Error("xyChart: needs at least one series");
  for (const s of spec.series) {
    if (s.values.length !== spec.x.length) {
      throw new Error(
        `xyChart: a ${s.kind} series has ${s.values.length} values for ${spec.x.length} x positions`,
      );
    }
  }
  const lines = [...frontMatter(spec), spec.horizontal ? "xychart-beta horizontal" : "xychart-beta"];
  if (spec.title) lines.push(`  title ${mermaidLabel(spec.title)}`);
  const xRange = linearRange(spec);
  const xAxis = xRange
    ? `${formatNumber(xRange[0])} --> ${formatNumber(xRange[1])}`
    : `[${spec.x.map((x) => mermaidLabel(String(x))).join(", ")}]`;
  lines.push(`  x-axis ${spec.xLabel ? `${mermaidLabel(spec.xLabel)} ` : ""}${xAxis}`);
  const range = yRange(spec);
  const yParts = [
    spec.yLabel ? mermaidLabel(spec.yLabel) : "",
    range ? `${formatNumber(range[0])} --> ${formatNumber(range[1])}` : "",
  ].filter(Boolean);
  if (yParts.length > 0) lines.push(`  y-axis ${yParts.join(" ")}`);
  for (const s of spec.series) lines.push(`  ${s.kind} [${s.values.map(formatNumber).join(", ")}]`);
  return `${lines.join("\n")}\n`;
}
