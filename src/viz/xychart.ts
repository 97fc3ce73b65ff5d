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
  /** The x positions: category names, or numbers (shown as categories). */
  x: ReadonlyArray<string | number>;
  xLabel?: string;
  yLabel?: string;
  /** Fixed y range; default: mermaid scales to the data. */
  yRange?: readonly [number, number];
  series: readonly XySeries[];
  /** Draw bars horizontally (long category names read better). */
  horizontal?: boolean;
  /** Size in pixels (mermaid's xyChart `width`/`height` config, set in the diagram's front matter). */
  width?: number;
  height?: number;
}

/**
 * The chart's front matter: its size, and the theme's inks as mermaid's plot palette (one colour per series, in
 * order) on a transparent background, so the chart sits on the notebook's own light or dark page.
 */
function frontMatter(spec: XyChartSpec): string[] {
  const inks = spec.series.map((s, i) => s.ink ?? SERIES_INKS[i % SERIES_INKS.length]!);
  return mermaidFrontMatter({
    xyChart: {
      width: spec.width === undefined ? undefined : Number(formatNumber(spec.width)),
      height: spec.height === undefined ? undefined : Number(formatNumber(spec.height)),
    },
    themeVariables: { xyChart: { plotColorPalette: inks.join(", "), backgroundColor: "transparent" } },
  });
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
  const categories = spec.x.map((x) => mermaidLabel(String(x))).join(", ");
  lines.push(`  x-axis ${spec.xLabel ? `${mermaidLabel(spec.xLabel)} ` : ""}[${categories}]`);
  const yParts = [
    spec.yLabel ? mermaidLabel(spec.yLabel) : "",
    spec.yRange ? `${formatNumber(spec.yRange[0])} --> ${formatNumber(spec.yRange[1])}` : "",
  ].filter(Boolean);
  if (yParts.length > 0) lines.push(`  y-axis ${yParts.join(" ")}`);
  for (const s of spec.series) lines.push(`  ${s.kind} [${s.values.map(formatNumber).join(", ")}]`);
  return `${lines.join("\n")}\n`;
}
