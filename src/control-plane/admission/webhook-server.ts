/**
 * A small admission webhook server for learners, after controller-runtime's `webhook.Server` and its
 * `admission.Webhook` handler (sigs.k8s.io/controller-runtime/pkg/webhook): it listens on 127.0.0.1 over HTTPS
 * with a certificate from its own freshly generated CA, decodes each AdmissionReview v1, hands its request to
 * your `validate` or `mutate` function, and answers with the review's uid.
 *
 * ```ts
 * const server = await startWebhookServer({
 *   validate: (req) => (req.object?.metadata?.labels?.team ? allowed() : denied("every object needs a team")),
 *   mutate: (req) => patchResponseFromRaw(req.object, { ...req.object, metadata: { ...req.object.metadata, labels: { team: "a" } } }),
 * });
 * // put server.validateUrl (or mutateUrl) and server.caBundle in a webhook configuration's clientConfig
 * await server.stop();
 * ```
 *
 * A `convert` function serves CRD conversion (controller-runtime's conversion webhook, `/convert`): it gets each
 * object of a ConversionReview v1 and the `desiredAPIVersion`, and returns the object in that version; the server
 * answers with the review's uid, `result.status: Success` and the converted objects in order. Put `convertUrl` and
 * `caBundle` in the CRD's `spec.conversion.webhook.clientConfig`.
 *
 * Guarantees: a handler that throws answers `allowed: false` with code 500 (controller-runtime's `Errored`); a
 * body that is not an AdmissionReview is a 400 with no review (kube-apiserver then treats the call as failed and
 * applies the webhook's failurePolicy); every connection is closed by `stop()`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { KubeObject } from "../../apimachinery/object.js";
import { generateServingCertificates } from "../apiserver/tls.js";

/** The `request` of an AdmissionReview v1 (k8s.io/api/admission/v1 `AdmissionRequest`). */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind?: { group: string; version: string; kind: string };
  requestResource?: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  /** The new object (CREATE, UPDATE), null for DELETE. */
  object?: KubeObject | null;
  /** The stored object (UPDATE, DELETE), null for CREATE. */
  oldObject?: KubeObject | null;
  dryRun?: boolean;
  options?: Record<string, unknown>;
}

/** One JSON Patch operation (RFC 6902). */
export interface PatchOperation {
  op: "add" | "remove" | "replace";
  path: string;
  value?: unknown;
}

/**
 * What a handler answers (controller-runtime's `admission.Response`): allowed or not, the Status of a denial,
 * warnings for the client's `Warning` headers, and for a mutating webhook a JSON Patch to apply.
 */
export interface AdmissionResponse {
  allowed: boolean;
  status?: { code?: number; reason?: string; message?: string };
  warnings?: string[];
  patch?: PatchOperation[];
}

/** A validating or mutating handler. */
export type AdmissionHandler = (request: AdmissionRequest) => AdmissionResponse | Promise<AdmissionResponse>;

/** The `request` of a ConversionReview v1 (k8s.io/apiextensions-apiserver `ConversionRequest`). */
export interface ConversionRequest {
  uid: string;
  /** The version to convert to, `group/version`. */
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/**
 * A conversion handler: returns `object` in `desiredAPIVersion` (its apiVersion set to it). It must keep the
 * object's kind, name, namespace and uid; kube-apiserver keeps only labels and annotations of the answer's
 * metadata. A throw answers the whole review with `result.status: Failure` and the error's message.
 */
export type ConversionHandler = (
  object: KubeObject,
  desiredAPIVersion: string,
) => KubeObject | Promise<KubeObject>;

/** Options of {@link startWebhookServer}. */
export interface WebhookServerOptions {
  /** Served at `/validate`. */
  validate?: AdmissionHandler;
  /** Served at `/mutate`. */
  mutate?: AdmissionHandler;
  /** Served at `/convert` (CRD conversion). */
  convert?: ConversionHandler;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
}

/** A running webhook server. */
export interface WebhookServer {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** `<url>/validate`, for a ValidatingWebhookConfiguration's `clientConfig.url`. */
  readonly validateUrl: string;
  /** `<url>/mutate`, for a MutatingWebhookConfiguration's `clientConfig.url`. */
  readonly mutateUrl: string;
  /** `<url>/convert`, for a CRD's `spec.conversion.webhook.clientConfig.url`. */
  readonly convertUrl: string;
  /** The CA certificate, base64 PEM, for `clientConfig.caBundle`. */
  readonly caBundle: string;
  /** The CA certificate as PEM (to call the server yourself). */
  readonly caPem: string;
  /** Reviews received so far, newest last (to look at what kube-apiserver sends). */
  readonly received: readonly AdmissionRequest[];
  /** ConversionReview requests received so far, newest last. */
  readonly conversions: readonly ConversionRequest[];
  /** Stops listening and closes every connection. Idempotent. */
  stop(): Promise<void>;
}

/** `admission.Allowed`: allow, with optional warnings. */
export function allowed(...warnings: string[]): AdmissionResponse {
  return warnings.length > 0 ? { allowed: true, warnings } : { allowed: true };
}

/** `admission.Denied`: refuse with 403 Forbidden and a message (kube-apiserver prefixes the webhook's name). */
export function denied(message: string, ...warnings: string[]): AdmissionResponse {
  const r: AdmissionResponse = { allowed: false, status: { code: 403, reason: "Forbidden", message } };
  if (warnings.length > 0) r.warnings = warnings;
  return r;
}

/** `admission.Errored`: refuse with an error code (500 when the handler failed). */
export function errored(code: number, message: string): AdmissionResponse {
  return { allowed: false, status: { code, message } };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The JSON Patch turning `original` into `current` (gomodules.xyz/jsonpatch `CreatePatch`, which
 * controller-runtime's `PatchResponseFromRaw` uses): objects are compared key by key, recursively; an array
 * that differs is replaced whole (a valid, if longer, patch than the element-wise one Go computes).
 */
export function createJsonPatch(original: unknown, current: unknown, path = ""): PatchOperation[] {
  if (sameJson(original, current)) return [];
  if (!isObject(original) || !isObject(current)) return [{ op: "replace", path, value: current }];
  const ops: PatchOperation[] = [];
  for (const key of Object.keys(original)) {
    if (!Object.hasOwn(current, key)) ops.push({ op: "remove", path: `${path}/${escapePointer(key)}` });
  }
  for (const [key, value] of Object.entries(current)) {
    const p = `${path}/${escapePointer(key)}`;
    if (!Object.hasOwn(original, key)) ops.push({ op: "add", path: p, value });
    else ops.push(...createJsonPatch(original[key], value, p));
  }
  return ops;
}

/**
 * `admission.PatchResponseFromRaw`: allow, with the JSON Patch from the request's object to your mutated copy
 * (no patch when nothing changed).
 */
export function patchResponseFromRaw(
  original: unknown,
  mutated: unknown,
  ...warnings: string[]
): AdmissionResponse {
  const patch = createJsonPatch(original, mutated);
  const r = allowed(...warnings);
  if (patch.length > 0) r.patch = patch;
  return r;
}

const MAX_BODY = 16 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error("request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The AdmissionReview answer to one request (`admission.Webhook.ServeHTTP`). */
async function review(handler: AdmissionHandler, request: AdmissionRequest): Promise<unknown> {
  let answer: AdmissionResponse;
  try {
    answer = await handler(request);
  } catch (err) {
    answer = errored(500, err instanceof Error ? err.message : String(err));
  }
  const response: Record<string, unknown> = { uid: request.uid, allowed: answer.allowed === true };
  if (answer.status) response.status = answer.status;
  if (answer.warnings && answer.warnings.length > 0) response.warnings = answer.warnings;
  if (answer.patch && answer.patch.length > 0) {
    response.patchType = "JSONPatch";
    response.patch = Buffer.from(JSON.stringify(answer.patch)).toString("base64");
  }
  return { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response };
}

/** Reads a ConversionReview and answers it; a body that is not one is a 400. */
function serveConversion(
  handler: ConversionHandler,
  req: IncomingMessage,
  res: ServerResponse,
  seen: ConversionRequest[],
): void {
  readBody(req)
    .then(async (text) => {
      let request: ConversionRequest | undefined;
      try {
        request = (JSON.parse(text) as { request?: ConversionRequest }).request;
      } catch {
        request = undefined;
      }
      if (!isObject(request) || typeof request.uid !== "string" || !Array.isArray(request.objects)) {
        send(res, 400, { message: "the body is not a ConversionReview with a request" });
        return;
      }
      seen.push(request);
      send(res, 200, await conversionReview(handler, request));
    })
    .catch(() => {
      if (!res.headersSent) send(res, 400, { message: "could not read the request" });
    });
}

/** The ConversionReview answer to one request (controller-runtime's conversion `webhook.ServeHTTP`). */
async function conversionReview(handler: ConversionHandler, request: ConversionRequest): Promise<unknown> {
  const response: Record<string, unknown> = { uid: request.uid };
  try {
    const converted: KubeObject[] = [];
    for (const obj of request.objects) converted.push(await handler(obj, request.desiredAPIVersion));
    response.convertedObjects = converted;
    response.result = { status: "Success" };
  } catch (err) {
    response.convertedObjects = [];
    response.result = { status: "Failure", message: err instanceof Error ? err.message : String(err) };
  }
  return { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", response };
}

/**
 * Starts a webhook server on 127.0.0.1 (controller-runtime's `webhook.Server.Start`), with a serving
 * certificate for `127.0.0.1` and `localhost` signed by a CA made for it.
 */
export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const certs = await generateServingCertificates({ dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
  const received: AdmissionRequest[] = [];
  const conversions: ConversionRequest[] = [];
  const handlers: Record<string, AdmissionHandler | undefined> = {
    "/validate": options.validate,
    "/mutate": options.mutate,
  };
  const server: Server = createServer({ key: certs.keyPem, cert: certs.certPem }, (req, res) => {
    const path = new URL(req.url ?? "/", "https://127.0.0.1").pathname;
    if (path === "/convert" && req.method === "POST" && options.convert) {
      serveConversion(options.convert, req, res, conversions);
      return;
    }
    const handler = handlers[path];
    if (req.method !== "POST" || handler === undefined) {
      send(res, 404, { message: `no webhook at ${req.method} ${path}` });
      return;
    }
    readBody(req)
      .then(async (text) => {
        let request: AdmissionRequest | undefined;
        try {
          const body = JSON.parse(text) as { request?: AdmissionRequest };
          request = body.request;
        } catch {
          request = undefined;
        }
        if (!isObject(request) || typeof request.uid !== "string") {
          send(res, 400, { message: "the body is not an AdmissionReview with a request" });
          return;
        }
        received.push(request);
        send(res, 200, await review(handler, request));
      })
      .catch(() => {
        if (!res.headersSent) send(res, 400, { message: "could not read the request" });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `https://127.0.0.1:${port}`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    validateUrl: `${url}/validate`,
    mutateUrl: `${url}/mutate`,
    convertUrl: `${url}/convert`,
    caBundle: Buffer.from(certs.caPem).toString("base64"),
    caPem: certs.caPem,
    received,
    conversions,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
