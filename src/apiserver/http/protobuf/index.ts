/** Kubernetes protobuf request bodies, decoded to the JSON the rest of the embedded API server handles. */
export {
  decodeKubernetesProtobuf,
  PROTOBUF_KINDS,
  protobufBodyAsJson,
} from "./decode-kubernetes-protobuf.js";
export { KUBERNETES_PROTOBUF, PROTOBUF_MAGIC, type ProtobufEnvelope, parseEnvelope } from "./envelope.js";
export {
  type DecodeMessageOptions,
  decodeMessage,
  MAX_NESTING_DEPTH,
  UnknownProtobufFieldError,
} from "./message-decoder.js";
export type { FieldSpec, MessageSchema, Presence, ScalarType, ValueType } from "./message-schema.js";
export {
  type FieldKey,
  MalformedProtobufError,
  ProtoReader,
  WireType,
  type WireTypeNumber,
} from "./wire-reader.js";
