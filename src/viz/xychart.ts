import { mermaidLabel } from "./mermaid-text.js";

/** One plotted series of an {@link xyChart}: a line or bars, one value per x position. */
export interface XySeries {
  kind: "line" | "bar";
  values: readonly number[];
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

function frontMatter(spec: XyChartSpec): string[] {
  const size: string[] = [];
  if (spec.width !== undefined) size.push(`    width: ${formatNumber(spec.width)}`);
  if (spec.height !== undefined) size.push(`    height: ${formatNumber(spec.height)}`);
  return size.length > 0 ? ["---", "config:", "  xyChart:", ...size, "---"] : [];
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`xyChart: values must be finite numbers, got ${n}`);
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

/**
 * Mermaid `xychart-beta` source: e.g. a backoff curve (attempt -> delay) or a latency series. Every series
 * must have exactly one value per x position; anything else is an error rather than a silently skewed plot.
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
