/**
 * A bounds-checked reader for the protobuf wire format (https://protobuf.dev/programming-guides/encoding/):
 * varints, 64-bit, length-delimited and 32-bit fields. It mirrors what gogo-protobuf's generated `Unmarshal`
 * methods do in kube-apiserver: read a tag, dispatch on the field number, fail on truncation or overflow.
 *
 * Invariants: the reader never reads past `end`; every read either advances `pos` or throws
 * {@link MalformedProtobufError}; a declared length is checked against the bytes left before anything is
 * sliced, so a hostile length cannot allocate or loop.
 */

/** The four wire types Kubernetes objects use (3 and 4, groups, are deprecated and rejected). */
export const WireType = {
  Varint: 0,
  Fixed64: 1,
  LengthDelimited: 2,
  Fixed32: 5,
} as const;

/** A protobuf wire type number. */
export type WireTypeNumber = (typeof WireType)[keyof typeof WireType];

/** The body is not valid protobuf (truncated, overlong varint, bad length...): kube-apiserver answers 400. */
export class MalformedProtobufError extends Error {
  override readonly name = "MalformedProtobufError";
}

/** One field key: the field number and how its value is encoded. */
export interface FieldKey {
  readonly field: number;
  readonly wireType: WireTypeNumber;
}

/** The largest field number protobuf allows (2^29 - 1). */
const MAX_FIELD_NUMBER = 536_870_911;
/** A varint is at most 10 bytes (64 bits, 7 per byte). */
const MAX_VARINT_BYTES = 10;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads protobuf fields from a byte range; nested messages get their own reader over a sub-range. */
export class ProtoReader {
  private pos: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    private readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  /** True once every byte of the range has been read. */
  done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads an unsigned varint as a 64-bit BigInt (callers narrow it to int32, int64 or bool). */
  varint(): bigint {
    // Fast path: one byte, the common case for tags, lengths and small numbers.
    if (this.pos < this.end && (this.bytes[this.pos] as number) < 0x80) {
      return BigInt(this.bytes[this.pos++] as number);
    }
    let value = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      if (this.pos >= this.end) throw new MalformedProtobufError("truncated varint");
      const b = this.bytes[this.pos++] as number;
      value |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return BigInt.asUintN(64, value);
    }
    throw new MalformedProtobufError("varint longer than 10 bytes");
  }

  /** Reads the next field key; fails on field number 0, numbers over 2^29-1 and group wire types. */
  key(): FieldKey {
    const raw = this.varint();
    const wireType = Number(raw & 7n);
    const field = raw >> 3n;
    if (field === 0n || field > BigInt(MAX_FIELD_NUMBER)) {
      throw new MalformedProtobufError(`invalid field number ${field}`);
    }
    if (wireType !== 0 && wireType !== 1 && wireType !== 2 && wireType !== 5) {
      throw new MalformedProtobufError(`unsupported wire type ${wireType} for field ${field}`);
    }
    return { field: Number(field), wireType: wireType as WireTypeNumber };
  }

  /** Reads a length prefix and returns the range it covers, checked against the bytes left. */
  lengthDelimited(): Uint8Array {
    const length = this.varint();
    const left = this.end - this.pos;
    if (length > BigInt(left)) {
      throw new MalformedProtobufError(`length ${length} exceeds the ${left} bytes left`);
    }
    const start = this.pos;
    this.pos += Number(length);
    return this.bytes.subarray(start, this.pos);
  }

  /** Reads a length-delimited UTF-8 string; invalid UTF-8 is malformed (never silently replaced). */
  string(): string {
    const bytes = this.lengthDelimited();
    try {
      return utf8.decode(bytes);
    } catch {
      throw new MalformedProtobufError("string field is not valid UTF-8");
    }
  }

  /** Reads a fixed 8-byte little-endian value. */
  fixed64(): bigint {
    return this.view(8).getBigUint64(0, true);
  }

  /** Reads a fixed 4-byte little-endian value. */
  fixed32(): number {
    return this.view(4).getUint32(0, true);
  }

  /** Skips a field's value of the given wire type (used for envelope fields that carry nothing we need). */
  skip(wireType: WireTypeNumber): void {
    switch (wireType) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.take(8);
        return;
      case WireType.LengthDelimited:
        this.lengthDelimited();
        return;
      case WireType.Fixed32:
        this.take(4);
        return;
    }
  }

  private view(n: number): DataView {
    const bytes = this.take(n);
    return new DataView(bytes.buffer, bytes.byteOffset, n);
  }

  private take(n: number): Uint8Array {
    if (this.end - this.pos < n) throw new MalformedProtobufError(`truncated ${n}-byte field`);
    const start = this.pos;
    this.pos += n;
    return this.bytes.subarray(start, this.pos);
  }
}
