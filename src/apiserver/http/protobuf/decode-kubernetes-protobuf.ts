/**
 * Decodes an `application/vnd.kubernetes.protobuf` request body (what kubectl's typed clients send for
 * `kubectl create namespace | configmap | secret | deployment | service`) into the JSON object the JSON path
 * would have produced, so the backend sees no difference. kube-apiserver decodes any registered kind; the
 * embedded server decodes the kinds in {@link PROTOBUF_KINDS} and answers:
 * - 400 BadRequest for bytes that are not valid protobuf (truncated, overlong varints, hostile lengths, too deep);
 * - 415 UnsupportedMediaType, with the `kubectl create -f` / `apply -f` hint, for a kind or a field it does not
 *   know: the body is refused rather than stored with data missing.
 */
import { badRequest, failure, type StatusError } from "../../../apimachinery/errors.js";
import { Deployment, ReplicaSet } from "./apps-schemas.js";
import { Lease } from "./coordination-schemas.js";
import { ConfigMap, Namespace, Secret, Service } from "./core-schemas.js";
import { parseEnvelope } from "./envelope.js";
import { Event } from "./event-schemas.js";
import { decodeMessage, UnknownProtobufFieldError } from "./message-decoder.js";
import type { MessageSchema } from "./message-schema.js";
import { Pod } from "./pod-schemas.js";
import { MalformedProtobufError } from "./wire-reader.js";

/** The kinds whose protobuf bodies are decoded, by `apiVersion/kind`. */
export const PROTOBUF_KINDS: ReadonlyMap<string, MessageSchema> = new Map([
  ["v1/Namespace", Namespace],
  ["v1/ConfigMap", ConfigMap],
  ["v1/Secret", Secret],
  ["v1/Service", Service],
  ["v1/Pod", Pod],
  ["v1/Event", Event],
  ["apps/v1/Deployment", Deployment],
  ["apps/v1/ReplicaSet", ReplicaSet],
  ["coordination.k8s.io/v1/Lease", Lease],
]);

const HINT = "use `kubectl create -f` or `kubectl apply -f` with a YAML or JSON manifest instead";

/** A 415 naming what the decoder cannot take, with the manifest hint. */
function unsupported(what: string): StatusError {
  return failure(
    415,
    "UnsupportedMediaType",
    `the embedded API server cannot decode this protobuf body: ${what}; ${HINT}`,
  );
}

/**
 * Decodes a Kubernetes protobuf body into a JSON object with `apiVersion` and `kind` first. Throws StatusError
 * (400 or 415, see the module comment); never anything else for any input.
 */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  try {
    const envelope = parseEnvelope(body);
    if (envelope.contentEncoding !== "") throw unsupported(`content encoding "${envelope.contentEncoding}"`);
    const schema = PROTOBUF_KINDS.get(`${envelope.apiVersion}/${envelope.kind}`);
    if (schema === undefined) {
      const known = [...PROTOBUF_KINDS.keys()].join(", ");
      throw unsupported(
        `kind ${envelope.kind || "(none)"} of apiVersion ${envelope.apiVersion || "(none)"} (it decodes ${known})`,
      );
    }
    return { apiVersion: envelope.apiVersion, kind: envelope.kind, ...decodeMessage(envelope.raw, schema) };
  } catch (err) {
    if (err instanceof MalformedProtobufError) {
      throw badRequest(`the protobuf request body is malformed: ${err.message}`);
    }
    if (err instanceof UnknownProtobufFieldError) throw unsupported(err.message);
    throw err;
  }
}

/** Decodes a Kubernetes protobuf body and returns it re-encoded as JSON bytes, for the JSON body path. */
export function protobufBodyAsJson(body: Uint8Array): Buffer {
  return Buffer.from(JSON.stringify(decodeKubernetesProtobuf(body)));
}
