/**
 * Go's `time.Duration.String()`, the JSON form of `metav1.Duration`: `0s`, `1.5µs`, `2ms`, `1m30s`, `1h0m0s`.
 * Units below a second use the largest of ns, µs, ms that keeps the value at least 1; from a second up it is
 * hours, minutes and seconds with the fraction of a second (trailing zeros trimmed).
 */

/** The fraction digits of `v` below 10^prec (trailing zeros trimmed, with a leading "."), and the whole part. */
function fraction(v: bigint, prec: number): [string, bigint] {
  const scale = 10n ** BigInt(prec);
  const digits = (v % scale).toString().padStart(prec, "0").replace(/0+$/, "");
  return [digits ? `.${digits}` : "", v / scale];
}

/** Formats nanoseconds as Go's `time.Duration.String()` does. */
export function goDurationString(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return "0s";
  const sign = nanoseconds < 0n ? "-" : "";
  const u = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) {
    const [f, whole] = fraction(u, 3);
    return `${sign}${whole}${f}µs`;
  }
  if (u < 1_000_000_000n) {
    const [f, whole] = fraction(u, 6);
    return `${sign}${whole}${f}ms`;
  }
  const [f, seconds] = fraction(u, 9);
  const hours = seconds / 3600n;
  const minutes = (seconds / 60n) % 60n;
  const secs = seconds % 60n;
  return `${sign}${hours > 0n ? `${hours}h` : ""}${hours > 0n || minutes > 0n ? `${minutes}m` : ""}${secs}${f}s`;
}
