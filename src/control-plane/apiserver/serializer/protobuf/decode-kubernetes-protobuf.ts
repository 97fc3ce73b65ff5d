/**
 * Decodes an `application/vnd.kubernetes.protobuf` request body (what client-go's typed clients, controller-runtime
 * and kubectl's imperative commands send for built-in kinds, `DeleteOptions` included) into the JSON object the
 * JSON path would have produced, so the backend sees no difference. Every kind of the groups in the generated
 * table (./generated, from k8s.io/api's generated.proto) decodes, and the meta types (`DeleteOptions`,
 * `CreateOptions`...) under any group version. Failures:
 * - 400 BadRequest for bytes that are not valid protobuf (truncated, overlong varints, hostile lengths, too deep);
 * - 415 UnsupportedMediaType, with the `kubectl create -f` / `apply -f` hint, for a kind outside the table or a
 *   compressed envelope.
 * Fields the table does not know (a newer client's) are skipped, as kube-apiserver skips them.
 */
import { badRequest, failure, type StatusError } from "../../../../apimachinery/errors.js";
import { kindSchema } from "../../schema/message-schema.js";
import { parseEnvelope } from "./envelope.js";
import { decodeMessage } from "./message-decoder.js";
import { MalformedProtobufError } from "./wire-reader.js";

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
    const schema = kindSchema(envelope.apiVersion, envelope.kind);
    if (schema === undefined) {
      throw unsupported(
        `kind ${envelope.kind || "(none)"} of apiVersion ${envelope.apiVersion || "(none)"} is not a kind it serves`,
      );
    }
    const decoded = decodeMessage(envelope.raw, schema) as Record<string, unknown>;
    return { apiVersion: envelope.apiVersion, kind: envelope.kind, ...decoded };
  } catch (err) {
    if (err instanceof MalformedProtobufError) {
      throw badRequest(`the protobuf request body is malformed: ${err.message}`);
    }
    throw err;
  }
}

/** Decodes a Kubernetes protobuf body and returns it re-encoded as JSON bytes, for the JSON body path. */
export function protobufBodyAsJson(body: Uint8Array): Buffer {
  return Buffer.from(JSON.stringify(decodeKubernetesProtobuf(body)));
}
