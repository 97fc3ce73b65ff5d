/**
 * Reading request bodies. kube-apiserver refuses bodies over 3 MiB (`MaxRequestBodyBytes`, 3 * 1024 * 1024)
 * with 413 RequestEntityTooLarge, accepts JSON for create/update and one of four patch media types for PATCH,
 * and answers 415 for anything else. The limit is enforced while reading, so a huge body is never buffered.
 */
import { loadYaml } from "@kubernetes/client-node";
import { badRequest, StatusError, tooLarge } from "../../../apimachinery/errors.js";
import { unsupportedMediaType } from "../errors.js";
import { findNestingPastLimit, KUBE_MAX_JSON_DEPTH, MAX_BODY_DEPTH, nestedDeeperThan } from "../json.js";
import { KUBERNETES_PROTOBUF, protobufBodyAsJson } from "../serializer/protobuf/index.js";
import type { PatchType } from "../types.js";
import { parseJsonReportingDuplicates } from "./json-decoder.js";
import type { ApiRequest } from "./transport.js";

/** kube-apiserver's default request body limit: 3 MiB. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const PATCH_TYPES: readonly PatchType[] = [
  "application/merge-patch+json",
  "application/json-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

/** The media type of a request without parameters (`application/json; charset=utf-8` -> `application/json`). */
export function mediaType(req: ApiRequest): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The patch type named by Content-Type, or a 415. */
export function patchTypeOf(req: ApiRequest): PatchType {
  const type = mediaType(req);
  if ((PATCH_TYPES as readonly string[]).includes(type)) return type as PatchType;
  throw unsupportedMediaType(type || "no Content-Type");
}

/**
 * Checks that a create/update body is JSON (an absent Content-Type is taken as JSON) or Kubernetes protobuf
 * (decoded by {@link readBody}). kube-apiserver also accepts YAML and CBOR; the embedded server does not, and
 * says so in the 415.
 */
export function requireJsonBody(req: ApiRequest): void {
  const type = mediaType(req);
  if (type === "" || type === "application/json" || type === "*/*" || type === KUBERNETES_PROTOBUF) return;
  const hint = type.includes("protobuf")
    ? " (kubectl's imperative `create <kind>` commands send protobuf: use `kubectl create -f` or `kubectl apply -f` instead)"
    : "";
  throw new StatusError({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `the embedded API server accepts request bodies as application/json only, got ${type}${hint}`,
    reason: "UnsupportedMediaType",
    code: 415,
  });
}

/**
 * Reads the whole body, failing with 413 as soon as it exceeds `limit` bytes (nothing more is kept; the rest
 * is read and discarded after the 413 is answered, so the client sees it). A Kubernetes protobuf body (kubectl's imperative `create`) comes
 * back decoded as JSON bytes, so the JSON path handles it (see ./protobuf/).
 */
export async function readBody(req: ApiRequest, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const raw = await readRawBody(req, limit);
  return mediaType(req) === KUBERNETES_PROTOBUF ? protobufBodyAsJson(raw) : raw;
}

function readRawBody(req: ApiRequest, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLargeError(limit));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop collecting; the rest is discarded once the 413 is answered (see ApiHandler).
        cleanup();
        chunks.length = 0;
        reject(tooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

function tooLargeError(limit: number) {
  return tooLarge(`the request body is larger than the limit of ${limit} bytes`);
}

/**
 * Parses a JSON body into a value. Malformed JSON is a 400 with the parser's message, as kube-apiserver
 * reports decode errors. Duplicate keys take the last value; `__proto__` keys stay plain data (JSON.parse
 * never touches prototypes).
 */
export function parseJson(body: Buffer, kind?: string): unknown {
  return parseJsonText(body.toString("utf8"), kind);
}

function parseJsonText(text: string, kind?: string, patchType?: PatchType): unknown {
  if (text.trim() === "") throw badRequest("the request body is empty; an object is required");
  const wording = (why: string) => {
    // With the expected kind (create, update), kube-apiserver's decoder wording; the reason is JavaScript's.
    if (kind !== undefined)
      return `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${why} (${summarizeBody(text)})`;
    if (patchType !== undefined) return patchDecodeMessage(patchType, why);
    return `couldn't decode the request body as JSON: ${why}`;
  };
  const tooDeep = nestingTooDeep(text, patchType === "application/apply-patch+yaml");
  if (tooDeep !== undefined) throw badRequest(wording(tooDeep));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(wording((err as Error).message));
  }
}

/**
 * The start of a body that could not be decoded, as kube-apiserver quotes it after the error
 * (`summarizeData(body, 30)`): the first 30 bytes and " ..." when longer; in hex unless it starts with `{`.
 */
function summarizeBody(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  const head = bytes.subarray(0, 30);
  const shown = bytes[0] === 0x7b ? head.toString("utf8") : head.toString("hex");
  return bytes.length > 30 ? `${shown} ...` : shown;
}

/**
 * The reason a body nests too deeply, or undefined. Past {@link KUBE_MAX_JSON_DEPTH} levels it is the error of the
 * decoder kube-apiserver runs (Go's JSON scanner, or for an apply configuration the YAML-to-JSON converter); between
 * {@link MAX_BODY_DEPTH} and that, a body kube-apiserver would decode, the embedded server refuses it and says
 * that the limit is its own: its walks over an object (copy, pruning, validation, field sets, merges) recurse,
 * and 1,000 levels keep them well inside Node's stack. Checked on the text before anything parses or walks it.
 */
export function nestingTooDeep(text: string, apply = false): string | undefined {
  const past = findNestingPastLimit(text, MAX_BODY_DEPTH);
  if (past === undefined) return undefined;
  const pastKube = findNestingPastLimit(text, KUBE_MAX_JSON_DEPTH);
  const own = ` (the embedded API server's limit; kube-apiserver's is ${KUBE_MAX_JSON_DEPTH})`;
  if (apply) {
    return pastKube !== undefined
      ? `error converting YAML to JSON: yaml: exceeded max depth of ${KUBE_MAX_JSON_DEPTH}`
      : `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_BODY_DEPTH}${own}`;
  }
  if (pastKube !== undefined) return `invalid character '${pastKube.bracket}' exceeded max depth`;
  return `invalid character '${past.bracket}' exceeded max depth of ${MAX_BODY_DEPTH}${own}`;
}

/**
 * kube-apiserver's 400 message for a patch body its decoder refuses (`pkg/endpoints/handlers/patch.go`): a JSON or
 * merge patch is "error decoding patch: ...", a strategic merge patch the bare decoder error, an apply
 * configuration "error decoding YAML: ...".
 */
function patchDecodeMessage(type: PatchType, why: string): string {
  switch (type) {
    case "application/strategic-merge-patch+json":
      return why;
    case "application/apply-patch+yaml":
      return `error decoding YAML: ${why}`;
    default:
      return `error decoding patch: ${why}`;
  }
}

/**
 * Parses a create or update body like {@link parseJson}, and also reports the keys it repeats (strict
 * decoding's `duplicate field`); an object repeated under one key is merged, as Go decodes it.
 */
export function parseObjectBody(body: Buffer, kind: string): { value: unknown; duplicates: string[] } {
  const text = body.toString("utf8");
  const value = parseJsonText(text, kind);
  if (!mayRepeatKeys(text, value)) return { value, duplicates: [] };
  try {
    const scanned = parseJsonReportingDuplicates(text);
    if (scanned.duplicates.length > 0) return scanned;
  } catch {
    // Unreachable past the depth check above (both stop at MAX_BODY_DEPTH); JSON.parse's value stands.
  }
  return { value, duplicates: [] };
}

/**
 * False when the text provably repeats no key, so the slower duplicate-reporting scan can be skipped (most
 * bodies). Every key in the text is followed by one `:`, so the text has at least as many colons as keys, and
 * at least as many keys as the parsed value (a repeated key collapses into one): as many colons as parsed keys
 * means no key was repeated. A colon inside a string (an image tag, a URL) only sends the body to the scan.
 */
export function mayRepeatKeys(text: string, parsed: unknown): boolean {
  let colons = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) colons++;
  return colons !== countKeys(parsed);
}

function countKeys(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += countKeys(v);
    return n;
  }
  for (const k in value) {
    if (Object.hasOwn(value, k)) n += 1 + countKeys((value as Record<string, unknown>)[k]);
  }
  return n;
}

/**
 * Parses a PATCH body of the given type: JSON for the three patch types, and for an apply configuration JSON
 * first (what kubectl and client-node send), then YAML. Every body is bounded in depth before any walk sees it
 * ({@link nestingTooDeep}); a YAML document, which has no brackets to count, is measured once it is loaded.
 */
export function parsePatch(body: Buffer, type: PatchType): unknown {
  if (type !== "application/apply-patch+yaml") return parseJsonText(body.toString("utf8"), undefined, type);
  const text = body.toString("utf8");
  const tooDeep = nestingTooDeep(text, true);
  if (tooDeep !== undefined) throw badRequest(patchDecodeMessage(type, tooDeep));
  try {
    return JSON.parse(text);
  } catch {
    // not JSON: YAML below
  }
  let value: unknown;
  try {
    value = loadYaml<unknown>(text);
  } catch (err) {
    // js-yaml's parser recurses per level: a document nested past Node's stack ends here as a RangeError.
    const why = err instanceof RangeError ? "exceeded max depth" : (err as Error).message;
    throw badRequest(`couldn't decode the apply patch as YAML: ${why}`);
  }
  if (nestedDeeperThan(value, MAX_BODY_DEPTH)) {
    throw badRequest(
      patchDecodeMessage(type, `exceeded max depth of ${MAX_BODY_DEPTH} (the embedded API server's limit)`),
    );
  }
  return value;
}

/** Checks that a body is a JSON object (not an array, string or null). */
export function requireObject(value: unknown, what = "request body"): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest(`the ${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}
