/** RFC 3339 at second precision, as `metav1.Time` serializes (`2026-01-01T00:00:00Z`). */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(".000Z", "Z");
    lastSecond = second;
  }
  return lastText;
}

// The last second formatted: every write within one second stamps the same text (a create's hot path).
let lastSecond = Number.NaN;
let lastText = "";
