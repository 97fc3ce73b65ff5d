/**
 * Go's `time.ParseDuration` syntax (`1h30m`, `1.5s`, `-300ms`, `2us`), which a `format: duration` string of a CRD
 * schema is typed as in CEL (a `duration`), as apiextensions-apiserver converts it.
 */
import { create } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Nanoseconds of a Go duration string, or `undefined` when it is not one. */
export function goDurationNanos(text: string): bigint | undefined {
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!m && text !== "0") return undefined;
  if (text === "0") return 0n;
  const sign = text.startsWith("-") ? -1n : 1n;
  let total = 0n;
  for (const part of text.replace(/^[-+]/, "").matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    const [whole = "0", frac = ""] = (part[1] ?? "0").split(".");
    const unit = UNIT_NANOS[part[2] ?? "s"] ?? 1n;
    total += BigInt(whole || "0") * unit;
    if (frac) total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
  }
  return sign * total;
}

/** A Go duration string as a `google.protobuf.Duration` (CEL's `duration`), or `undefined`. */
export function parseGoDuration(text: string): Duration | undefined {
  const nanos = goDurationNanos(text);
  if (nanos === undefined) return undefined;
  return create(DurationSchema, { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) });
}
