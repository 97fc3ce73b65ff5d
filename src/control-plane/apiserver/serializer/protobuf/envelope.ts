/**
 * The envelope kube-apiserver's protobuf serializer (k8s.io/apimachinery runtime/serializer/protobuf) wraps
 * every object in: the 4 magic bytes `k8s\0`, then a `runtime.Unknown` message with typeMeta=1
 * (apiVersion=1, kind=2), raw=2 (the object's own message), contentEncoding=3, contentType=4.
 */
import { MalformedProtobufError, ProtoReader } from "./wire-reader.js";

/** The media type of Kubernetes protobuf bodies. */
export const KUBERNETES_PROTOBUF = "application/vnd.kubernetes.protobuf";

/** The magic prefix `k8s\0` that starts every Kubernetes protobuf body. */
export const PROTOBUF_MAGIC: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** A decoded `runtime.Unknown`: the object's type and its still-encoded bytes. */
export interface ProtobufEnvelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** Splits a body into its envelope fields; a missing magic prefix or bad wire data is malformed. */
export function parseEnvelope(body: Uint8Array): ProtobufEnvelope {
  if (body.length < PROTOBUF_MAGIC.length || PROTOBUF_MAGIC.some((b, i) => body[i] !== b)) {
    throw new MalformedProtobufError("the body does not start with the Kubernetes protobuf prefix k8s\\0");
  }
  const reader = new ProtoReader(body, PROTOBUF_MAGIC.length);
  let apiVersion = "";
  let kind = "";
  let raw = new Uint8Array(0);
  let contentEncoding = "";
  let contentType = "";
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    if (field >= 1 && field <= 4 && wireType !== 2) {
      throw new MalformedProtobufError(`envelope field ${field} has wire type ${wireType}, expected 2`);
    }
    if (field === 1) {
      const typeMeta = new ProtoReader(reader.lengthDelimited());
      while (!typeMeta.done()) {
        const key = typeMeta.key();
        if (key.field === 1 && key.wireType === 2) apiVersion = typeMeta.string();
        else if (key.field === 2 && key.wireType === 2) kind = typeMeta.string();
        else typeMeta.skip(key.wireType);
      }
    } else if (field === 2) raw = reader.lengthDelimited();
    else if (field === 3) contentEncoding = reader.string();
    else if (field === 4) contentType = reader.string();
    else reader.skip(wireType);
  }
  return { apiVersion, kind, raw, contentEncoding, contentType };
}
