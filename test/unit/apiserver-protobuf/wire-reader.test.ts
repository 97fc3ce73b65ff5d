import { describe, expect, it } from "vitest";
import {
  MalformedProtobufError,
  ProtoReader,
  WireType,
} from "../../../src/control-plane/apiserver/serializer/protobuf/index.js";
import { bfield, fields, key, varint } from "../../support/proto-encoder.js";

const reader = (...bytes: number[]) => new ProtoReader(Uint8Array.from(bytes));

describe("ProtoReader", () => {
  it("reads one-byte, multi-byte and 10-byte (negative) varints", () => {
    expect(reader(0x05).varint()).toBe(5n);
    expect(reader(0xac, 0x02).varint()).toBe(300n);
    expect(new ProtoReader(varint(-1)).varint()).toBe(0xffff_ffff_ffff_ffffn);
    expect(BigInt.asIntN(64, new ProtoReader(varint(-42)).varint())).toBe(-42n);
  });

  it("rejects a truncated varint and one longer than 10 bytes", () => {
    expect(() => reader(0x80, 0x80).varint()).toThrow(/truncated varint/);
    expect(() => new ProtoReader(new Uint8Array(11).fill(0xff)).varint()).toThrow(/longer than 10 bytes/);
  });

  it("reads field keys and refuses field 0, oversized numbers and group wire types", () => {
    expect(new ProtoReader(key(17, 2)).key()).toEqual({ field: 17, wireType: 2 });
    expect(() => reader(0x02).key()).toThrow(/invalid field number 0/);
    expect(() => new ProtoReader(key(2 ** 29, 0)).key()).toThrow(/invalid field number/);
    expect(() => new ProtoReader(key(1, 3)).key()).toThrow(/wire type 3/);
  });

  it("checks a declared length against the bytes left before slicing (a hostile length fails at once)", () => {
    const ok = new ProtoReader(fields(varint(3), Uint8Array.of(1, 2, 3)));
    expect([...ok.lengthDelimited()]).toEqual([1, 2, 3]);
    expect(ok.done()).toBe(true);
    const huge = new ProtoReader(fields(varint(2n ** 62n), Uint8Array.of(1)));
    expect(() => huge.lengthDelimited()).toThrow(MalformedProtobufError);
    expect(() => new ProtoReader(fields(varint(4), Uint8Array.of(1, 2, 3))).lengthDelimited()).toThrow(
      /length 4 exceeds the 3 bytes left/,
    );
  });

  it("reads fixed 32/64-bit values little-endian and skips every wire type", () => {
    expect(reader(0x78, 0x56, 0x34, 0x12).fixed32()).toBe(0x12345678);
    expect(reader(1, 0, 0, 0, 0, 0, 0, 0x80).fixed64()).toBe(0x8000_0000_0000_0001n);
    expect(() => reader(1, 2, 3).fixed32()).toThrow(/truncated 4-byte/);
    const r = new ProtoReader(
      fields(
        varint(300),
        Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8),
        bfield(1, Uint8Array.of(9)),
        Uint8Array.of(1, 2, 3, 4),
      ),
    );
    r.skip(WireType.Varint);
    r.skip(WireType.Fixed64);
    expect(r.key()).toEqual({ field: 1, wireType: 2 });
    r.skip(WireType.LengthDelimited);
    r.skip(WireType.Fixed32);
    expect(r.done()).toBe(true);
  });

  it("rejects invalid UTF-8 in strings instead of replacing it", () => {
    expect(() => reader(0x02, 0xc3, 0x28).string()).toThrow(/not valid UTF-8/);
    expect(reader(0x02, 0xc3, 0xa9).string()).toBe("é");
  });
});
