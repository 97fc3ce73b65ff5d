/**
 * Bad input never crashes or hangs the decoder: malformed bytes are 400 BadRequest, a kind the decoder does not
 * serve (or a compressed envelope) is 415 UnsupportedMediaType with the `kubectl create -f` hint, and a field
 * number the schema does not know is skipped after its wire format is checked, as kube-apiserver skips it.
 */
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import {
  decodeKubernetesProtobuf,
  decodeMessage,
  MAX_NESTING_DEPTH,
  MalformedProtobufError,
  type MessageSchema,
  messageSchema,
} from "../../../src/control-plane/apiserver/serializer/protobuf/index.js";
import { bfield, envelope, fields, key, sfield, varint, vfield } from "../../support/proto-encoder.js";
import { KUBECTL_BODIES, kubectlBody } from "./kubectl-bodies.js";

/** The StatusError the decoder throws for `body` (fails the test if it decodes or throws anything else). */
function apiErrorOf(body: Uint8Array): StatusError {
  try {
    decodeKubernetesProtobuf(body);
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error("expected the body to be refused");
}

const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

describe("malformed bodies are 400 BadRequest", () => {
  it.each([
    ["an empty body", new Uint8Array(0)],
    ["JSON sent with the protobuf media type", Uint8Array.from(Buffer.from('{"kind":"ConfigMap"}'))],
    ["an overlong varint in the envelope", fields(MAGIC, new Uint8Array(11).fill(0xff))],
    ["a length of 2^62 for raw", fields(MAGIC, key(2, 2), varint(2n ** 62n), Uint8Array.of(1))],
    ["a group wire type", fields(MAGIC, key(2, 3))],
    ["a string field sent as a varint", envelope("v1", "ConfigMap", bfield(1, vfield(1, 7)))],
    ["invalid UTF-8 in a name", envelope("v1", "ConfigMap", bfield(1, bfield(1, Uint8Array.of(0xff))))],
    ["an IntOrString of type 7", envelope("v1", "Service", bfield(2, bfield(1, bfield(4, vfield(1, 7)))))],
    ["a time beyond year 9999", envelope("v1", "ConfigMap", bfield(1, bfield(8, vfield(1, 2n ** 40n))))],
    ["an int64 beyond 2^53", envelope("v1", "ConfigMap", bfield(1, vfield(7, 2n ** 60n)))],
  ])("%s", (_name, body) => {
    const err = apiErrorOf(body);
    expect(err.status.code).toBe(400);
    expect(err.status.reason).toBe("BadRequest");
  });

  it("every truncation of a real kubectl body is refused with 400 or decodes a prefix, never anything else", () => {
    for (const name of Object.keys(KUBECTL_BODIES) as (keyof typeof KUBECTL_BODIES)[]) {
      const body = kubectlBody(name);
      let refused = 0;
      for (let cut = 0; cut < body.length; cut++) {
        try {
          decodeKubernetesProtobuf(body.subarray(0, cut));
        } catch (err) {
          expect(err).toBeInstanceOf(StatusError);
          expect([400, 415]).toContain((err as StatusError).status.code);
          refused++;
        }
      }
      // Only cuts at the envelope's trailing empty fields (contentEncoding, contentType) still decode.
      expect(refused).toBeGreaterThanOrEqual(body.length - 4);
    }
  });

  it("seeded random byte flips of real bodies only ever give an object, 400 or 415", () => {
    let seed = 0x9e3779b9;
    const random = () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const outcomes = { decoded: 0, 400: 0, 415: 0 };
    for (let i = 0; i < 3000; i++) {
      const names = Object.keys(KUBECTL_BODIES) as (keyof typeof KUBECTL_BODIES)[];
      const body = kubectlBody(names[Math.floor(random() * names.length)] as keyof typeof KUBECTL_BODIES);
      for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) {
        body[4 + Math.floor(random() * (body.length - 4))] = Math.floor(random() * 256);
      }
      try {
        expect(typeof decodeKubernetesProtobuf(body)).toBe("object");
        outcomes.decoded++;
      } catch (err) {
        expect(err).toBeInstanceOf(StatusError);
        const code = (err as StatusError).status.code as 400 | 415;
        expect([400, 415]).toContain(code);
        outcomes[code]++;
      }
    }
    // Each outcome occurs: the flips reach both the wire format and the schema.
    expect(outcomes.decoded).toBeGreaterThan(0);
    expect(outcomes[400]).toBeGreaterThan(0);
    expect(outcomes[415]).toBeGreaterThan(0);
  });
});

describe("nesting depth", () => {
  // apiextensions JSONSchemaProps nests itself through `not` (field 28): a recursive message from the table.
  const schema = messageSchema("apiextensions.v1.JSONSchemaProps") as MessageSchema;
  const nested = (levels: number): Uint8Array => {
    let bytes = new Uint8Array(0);
    for (let i = 1; i < levels; i++) bytes = bfield(28, bytes);
    return bytes;
  };

  it("accepts nesting up to the limit and refuses one level more", () => {
    expect(() => decodeMessage(nested(MAX_NESTING_DEPTH), schema)).not.toThrow();
    expect(() => decodeMessage(nested(MAX_NESTING_DEPTH + 1), schema)).toThrow(MalformedProtobufError);
    expect(() => decodeMessage(nested(MAX_NESTING_DEPTH + 1), schema)).toThrow(/nested more than 100 levels/);
    expect(() => decodeMessage(nested(50_000), schema)).toThrow(/nested more than 100 levels/);
  });
});

describe("what the decoder does not serve is 415; unknown fields are skipped", () => {
  it("a field number missing from the schema is skipped, its wire format checked", () => {
    const meta = fields(sfield(1, "c"), bfield(999, sfield(1, "from a newer client")));
    expect(decodeKubernetesProtobuf(envelope("v1", "ConfigMap", bfield(1, meta)))).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
    });
    // A skipped field that is itself truncated is still malformed.
    const truncated = fields(sfield(1, "c"), key(999, 2), varint(40), Uint8Array.of(1, 2));
    expect(apiErrorOf(envelope("v1", "ConfigMap", bfield(1, truncated))).status.code).toBe(400);
  });

  it("a kind outside the served groups (a made-up one), and a compressed envelope", () => {
    const made = apiErrorOf(envelope("example.com/v1", "Widget", new Uint8Array(0)));
    expect(made.status.code).toBe(415);
    expect(made.status.message).toContain("kind Widget of apiVersion example.com/v1");
    expect(made.status.message).toContain("kubectl create -f");
    const gz = fields(
      MAGIC,
      bfield(1, fields(sfield(1, "v1"), sfield(2, "ConfigMap"))),
      bfield(2, new Uint8Array(0)),
      sfield(3, "gzip"),
    );
    expect(apiErrorOf(gz).status.message).toContain('content encoding "gzip"');
  });
});
