import type { RequestCount } from "../apiserver/instruments/metrics.js";
import { xyChart } from "./xychart.js";

/** The label of one request row: `LIST configmaps` (plus ` 404` when the code is not a 2xx). */
export function requestLabel(row: Pick<RequestCount, "verb" | "resource" | "code">): string {
  const ok = row.code >= 200 && row.code < 300;
  return `${row.verb} ${row.resource}${ok ? "" : ` ${row.code}`}`;
}

/**
 * A horizontal bar chart of API requests by verb, resource and code, from the embedded server's
 * `instruments.metrics.snapshot().requests` (the teaching view of kube-apiserver's
 * `apiserver_request_total`). Rows with the same label are summed; the biggest come first.
 */
export function requestBarChart(requests: readonly RequestCount[], title = "API requests"): string {
  const totals = new Map<string, number>();
  for (const row of requests) totals.set(requestLabel(row), (totals.get(requestLabel(row)) ?? 0) + row.count);
  const rows = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (rows.length === 0) rows.push(["(no requests)", 0]);
  return xyChart({
    title,
    horizontal: true,
    height: 120 + 40 * rows.length,
    x: rows.map(([label]) => label),
    yLabel: "requests",
    // From zero, or the smallest bar would have no length (mermaid scales the axis to the data by default).
    yRange: [0, Math.max(1, ...rows.map(([, n]) => n))],
    series: [{ kind: "bar", values: rows.map(([, n]) => n) }],
  });
}
