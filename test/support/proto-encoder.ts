/**
 * A tiny protobuf encoder for building test fixtures (the library itself only decodes). Each helper returns
 * the bytes of one field; `fields` concatenates them into a message body.
 */

/** Bytes of an unsigned varint (negative numbers as 64-bit two's complement, 10 bytes, as protobuf does). */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** Concatenates byte arrays. */
export function fields(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** A field key (field number and wire type). */
export function key(field: number, wireType: number): Uint8Array {
  return varint((BigInt(field) << 3n) | BigInt(wireType));
}

/** A varint field (int32, int64, bool). */
export function vfield(field: number, value: number | bigint | boolean): Uint8Array {
  return fields(key(field, 0), varint(typeof value === "boolean" ? (value ? 1 : 0) : value));
}

/** A length-delimited field holding raw bytes or a nested message. */
export function bfield(field: number, bytes: Uint8Array): Uint8Array {
  return fields(key(field, 2), varint(bytes.length), bytes);
}

/** A string field. */
export function sfield(field: number, text: string): Uint8Array {
  return bfield(field, Uint8Array.from(Buffer.from(text, "utf8")));
}

/** One `map<string, string>` entry (key=1, value=2) as field `field`. */
export function entry(field: number, k: string, v: string | Uint8Array): Uint8Array {
  return bfield(field, fields(sfield(1, k), typeof v === "string" ? sfield(2, v) : bfield(2, v)));
}

/** A whole Kubernetes protobuf body: `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return fields(
    Uint8Array.of(0x6b, 0x38, 0x73, 0x00),
    bfield(1, fields(sfield(1, apiVersion), sfield(2, kind))),
    bfield(2, raw),
    sfield(3, ""),
    sfield(4, ""),
  );
}
