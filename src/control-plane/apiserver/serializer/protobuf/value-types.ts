/**
 * JSON forms of apimachinery's small value messages, as their Go `MarshalJSON` methods write them:
 * metav1.Time -> RFC3339 in seconds, metav1.MicroTime -> RFC3339 with 6 fraction digits, IntOrString -> a
 * number or a string (Quantity is its string, see message-decoder.ts).
 */
import { MalformedProtobufError } from "./wire-reader.js";

/**
 * The RFC3339 text of a decoded Time/MicroTime, or null for the zero time: Go marshals a zero metav1.Time as
 * null, which is also what kubectl's JSON bodies carry (`"creationTimestamp": null`). `micro` selects
 * MicroTime's 6 fraction digits.
 */
export function timestampJson(decoded: Record<string, unknown>, micro: boolean): string | null {
  const seconds = (decoded.seconds as number | undefined) ?? 0;
  const nanos = (decoded.nanos as number | undefined) ?? 0;
  if (seconds === 0 && nanos === 0) return null;
  if (nanos < 0 || nanos > 999_999_999) throw new MalformedProtobufError(`time nanos ${nanos} out of range`);
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) {
    throw new MalformedProtobufError(`time seconds ${seconds} out of range`);
  }
  const whole = date.toISOString().slice(0, 19);
  return micro ? `${whole}.${String(Math.floor(nanos / 1000)).padStart(6, "0")}Z` : `${whole}Z`;
}

/** The JSON value of a decoded IntOrString: the string when type is 1, else the integer. */
export function intOrStringJson(decoded: Record<string, unknown>): number | string {
  const type = (decoded.type as number | undefined) ?? 0;
  if (type === 1) return (decoded.strVal as string | undefined) ?? "";
  if (type !== 0)
    throw new MalformedProtobufError(`IntOrString type ${type} is neither 0 (int) nor 1 (string)`);
  return (decoded.intVal as number | undefined) ?? 0;
}
