/** Kubernetes protobuf request bodies, decoded to the JSON the rest of the embedded API server handles. */

export {
  type FieldSpec,
  kindSchema,
  knownKinds,
  type MessageSchema,
  messageSchema,
  type ScalarType,
} from "../../schema/message-schema.js";
export { decodeKubernetesProtobuf, protobufBodyAsJson } from "./decode-kubernetes-protobuf.js";
export { KUBERNETES_PROTOBUF, PROTOBUF_MAGIC, type ProtobufEnvelope, parseEnvelope } from "./envelope.js";
export { goDurationString } from "./go-duration.js";
export {
  CUSTOM_JSON_MESSAGES,
  type DecodeMessageOptions,
  decodeMessage,
  MAX_NESTING_DEPTH,
} from "./message-decoder.js";
export {
  type FieldKey,
  MalformedProtobufError,
  ProtoReader,
  WireType,
  type WireTypeNumber,
} from "./wire-reader.js";
