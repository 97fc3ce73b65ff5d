import { PALETTE, SERIES_INKS } from "./theme.js";
import { type XySeries, xyChart } from "./xychart.js";

/**
 * One row of request counts as the chart reads it: the shape of the embedded server's
 * `instruments.metrics.snapshot().requests` rows (declared here, so pictures never import the server).
 */
export interface RequestCountRow {
  verb: string;
  resource: string;
  code: number;
  count: number;
}

/** How {@link requestBarChart} groups request rows into bars. */
export type RequestGrouping = "verb" | "verb-resource";

/**
 * The bar label of one request row: `list configmaps` (or just `list` when grouping by verb), plus the code
 * when it is not a 2xx (`get configmaps 404`), so failures never hide inside a success bar.
 */
export function requestLabel(
  row: Pick<RequestCountRow, "verb" | "resource" | "code">,
  by: RequestGrouping = "verb-resource",
): string {
  const ok = row.code >= 200 && row.code < 300;
  const what = by === "verb" ? row.verb : `${row.verb} ${row.resource}`;
  return `${what}${ok ? "" : ` ${row.code}`}`;
}

/** Options of {@link requestBarChart}. */
export interface RequestBarChartOptions {
  title?: string;
  /** One bar per verb, or per verb and resource (default). */
  by?: RequestGrouping;
}

/**
 * A horizontal bar chart of API requests, from the embedded server's `instruments.metrics.snapshot().requests`
 * (the teaching view of kube-apiserver's `apiserver_request_total`). Rows with the same label are summed; the
 * biggest come first. Successful requests are drawn in the first series ink, failed ones (not 2xx) in the
 * theme's `error` red, so a 404 or 409 stands out without reading the labels.
 */
export function requestBarChart(
  requests: readonly RequestCountRow[],
  options: RequestBarChartOptions = {},
): string {
  const by = options.by ?? "verb-resource";
  const totals = new Map<string, number>();
  for (const row of requests)
    totals.set(requestLabel(row, by), (totals.get(requestLabel(row, by)) ?? 0) + row.count);
  const failed = new Set(
    requests.filter((r) => r.code < 200 || r.code >= 300).map((r) => requestLabel(r, by)),
  );
  const rows = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (rows.length === 0) rows.push(["(no requests)", 0]);
  // Bar series are drawn over each other from the axis, and a zero still draws a stub of a few pixels. So the
  // red series goes underneath with every bar at full length, and the blue one on top with failures at zero:
  // failures show red, with at most a blue stub left of the 0 tick.
  const ok = rows.map(([label, n]) => (failed.has(label) ? 0 : n));
  const series: XySeries[] =
    failed.size === 0
      ? [{ kind: "bar", ink: SERIES_INKS[0], values: ok }]
      : [
          { kind: "bar", ink: PALETTE.error.ink, values: rows.map(([, n]) => n) },
          { kind: "bar", ink: SERIES_INKS[0], values: ok },
        ];
  return xyChart({
    title: options.title ?? "API requests",
    horizontal: true,
    height: 120 + 40 * rows.length,
    x: rows.map(([label]) => label),
    yLabel: "requests",
    // From zero, or the smallest bar would have no length (mermaid scales the axis to the data by default).
    yRange: [0, Math.max(1, ...rows.map(([, n]) => n))],
    series,
  });
}
