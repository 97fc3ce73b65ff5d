/**
 * One webhook call (the dispatchers' `callHook`, k8s.io/apiserver plugin/webhook/{validating,mutating}/dispatcher.go,
 * and `request/admissionreview.go`): POST an AdmissionReview v1 over HTTPS to `clientConfig.url` (with
 * `?timeout=<n>s` as client-go adds it), trusting `caBundle`, and check the answer. Two kinds of failure, as
 * kube-apiserver tells them apart:
 * - {@link CallingWebhookError} (`ErrCallingWebhook`): the webhook could not be reached, timed out, or answered
 *   something that is not a valid AdmissionReview for this request (wrong uid, a patch from a validating webhook,
 *   garbage). The webhook's failurePolicy decides: `Ignore` skips it, `Fail` fails the request with 500;
 * - a rejection (`allowed: false`): the request fails with the webhook's Status, message prefixed
 *   `admission webhook "<name>" denied the request: ` (`errors.ToStatusErr`), whatever the failurePolicy.
 */
import { randomUUID } from "node:crypto";
import type { ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { badRequest, type Status, type StatusError, statusToError } from "../../../../apimachinery/errors.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { Webhook } from "./configuration.js";
import type { AdmissionAttributes } from "./matching.js";

/** The user the embedded server authenticates every bearer-token request as. */
export const ADMISSION_USER: JsonObject = {
  username: "workbook-admin",
  groups: ["system:masters", "system:authenticated"],
};

/** Largest webhook answer read (a bigger one is a calling error, not an out-of-memory). */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** `webhookutil.ErrCallingWebhook`: the webhook could not be called or answered badly. */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
  }
}

/** What a webhook allowed, after `VerifyAdmissionResponse`. */
export interface WebhookAnswer {
  allowed: boolean;
  /** The decoded JSON Patch (mutating webhooks only), when one was sent. */
  patch?: unknown;
  patchType?: string;
  result?: JsonObject;
  warnings: string[];
}

/** `errors.ToStatusErr`: the Status a rejection fails the request with. */
export function rejectionError(webhookName: string, result: JsonObject | undefined): StatusError {
  const r: JsonObject = isJsonObject(result) ? { ...result } : { status: "Failure" };
  const code = typeof r.code === "number" ? r.code : 0;
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const message = typeof r.message === "string" ? r.message : "";
  const reason = typeof r.reason === "string" ? r.reason : "";
  const status: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: isJsonObject(r.metadata) ? (r.metadata as Status["metadata"]) : {},
    status:
      r.status === undefined || r.status === "" || r.status === "Success" ? "Failure" : String(r.status),
    message:
      message !== ""
        ? `${deniedBy}: ${message}`
        : reason !== ""
          ? `${deniedBy}: ${reason}`
          : `${deniedBy} without explanation`,
    code: Math.max(code, 400),
  };
  if (reason !== "") status.reason = reason;
  if (isJsonObject(r.details)) status.details = r.details as Status["details"];
  return statusToError(status);
}

/** The AdmissionReview v1 a webhook is sent (`CreateAdmissionObjects`), with a fresh uid. */
export function admissionReview(a: AdmissionAttributes): { uid: string; review: JsonObject } {
  const uid = randomUUID();
  const kind = { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  const request: JsonObject = {
    uid,
    kind,
    resource,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: kind,
    requestResource: resource,
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: ADMISSION_USER,
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.dryRun,
    options: a.options,
  };
  return { uid, review: { kind: "AdmissionReview", apiVersion: "admission.k8s.io/v1", request } };
}

/** How Go's HTTP client words a failed POST (`Post "<url>": <cause>`). */
function goCause(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return `dial tcp ${host}: connect: connection refused`;
    case "ENOTFOUND":
      return `dial tcp: lookup ${host.replace(/:\d+$/, "")}: no such host`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    default:
      return err.message;
  }
}

/**
 * POSTs the review and resolves with the decoded answer body; rejects with a {@link CallingWebhookError} when
 * the webhook cannot be reached, does not answer within `timeoutSeconds`, or answers other than 2xx JSON.
 */
function post(hook: Webhook, review: JsonObject): Promise<unknown> {
  const name = hook.name;
  if (hook.url === undefined) {
    const svc = hook.service ?? {};
    return Promise.reject(
      new CallingWebhookError(
        name,
        `could not get REST client: the embedded API server cannot resolve service ${String(svc.namespace)}/${String(svc.name)} (it runs no Services or endpoints); use clientConfig.url`,
      ),
    );
  }
  let url: URL;
  try {
    url = new URL(hook.url);
  } catch {
    return Promise.reject(
      new CallingWebhookError(name, `could not get REST client: invalid URL ${JSON.stringify(hook.url)}`),
    );
  }
  url.searchParams.set("timeout", `${hook.timeoutSeconds}s`);
  const shown = url.toString();
  const body = JSON.stringify(review);
  return new Promise((resolve, reject) => {
    let settled = false;
    let req: ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    const fail = (cause: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      reject(
        new CallingWebhookError(name, `failed to call webhook: Post ${JSON.stringify(shown)}: ${cause}`),
      );
    };
    try {
      req = httpsRequest(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "content-length": Buffer.byteLength(body),
          },
          ...(hook.caBundle !== undefined ? { ca: hook.caBundle } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) fail("response body too large");
            else chunks.push(c);
          });
          res.on("error", (err) => fail(err.message));
          res.on("end", () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString("utf8");
            const code = res.statusCode ?? 0;
            if (code < 200 || code > 206) {
              const shownBody = text.length > 256 ? `${text.slice(0, 256)}...` : text;
              reject(
                new CallingWebhookError(
                  name,
                  `failed to call webhook: an error on the server (${JSON.stringify(shownBody)}) has prevented the request from succeeding`,
                ),
              );
              return;
            }
            try {
              resolve(JSON.parse(text));
            } catch (err) {
              reject(
                new CallingWebhookError(
                  name,
                  `failed to call webhook: couldn't get version/kind; json parse error: ${(err as Error).message}`,
                ),
              );
            }
          });
        },
      );
    } catch (err) {
      // A caBundle that is not PEM fails building the client (kube: `could not get REST client`).
      settled = true;
      reject(new CallingWebhookError(name, `could not get REST client: ${(err as Error).message}`));
      return;
    }
    timer = setTimeout(() => fail("context deadline exceeded"), hook.timeoutSeconds * 1000);
    req.on("error", (err: NodeJS.ErrnoException) => fail(goCause(err, url.host)));
    req.end(body);
  });
}

/** `VerifyAdmissionResponse` for v1: the answer must be an AdmissionReview v1 for this uid. */
export function verifyResponse(name: string, uid: string, mutating: boolean, body: unknown): WebhookAnswer {
  const bad = (why: string): CallingWebhookError =>
    new CallingWebhookError(name, `received invalid webhook response: ${why}`);
  if (!isJsonObject(body)) throw bad("webhook response was absent");
  const response = body.response;
  if (!isJsonObject(response)) throw bad("webhook response was absent");
  if (response.uid !== uid)
    throw bad(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? "")}`);
  if (body.apiVersion !== "admission.k8s.io/v1" || body.kind !== "AdmissionReview") {
    const [g, v] = String(body.apiVersion ?? "").includes("/")
      ? String(body.apiVersion).split("/")
      : ["", String(body.apiVersion ?? "")];
    throw bad(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${g}/${v}, Kind=${String(body.kind ?? "")}`,
    );
  }
  const hasPatch = typeof response.patch === "string" && response.patch !== "";
  const hasType = response.patchType !== undefined && response.patchType !== null;
  const answer: WebhookAnswer = {
    allowed: response.allowed === true,
    warnings: Array.isArray(response.warnings) ? response.warnings.map(String) : [],
  };
  if (isJsonObject(response.status)) answer.result = response.status;
  if (mutating) {
    if (hasPatch && !hasType) throw bad("webhook returned response.patch but not response.patchType");
    if (!hasPatch && hasType) throw bad("webhook returned response.patchType but not response.patch");
    if (hasType) {
      if (response.patchType === "") throw bad(`webhook returned invalid response.patchType of ""`);
      answer.patchType = String(response.patchType);
    }
    if (hasPatch) {
      try {
        answer.patch = JSON.parse(Buffer.from(response.patch as string, "base64").toString("utf8"));
      } catch (err) {
        throw new CallingWebhookError(
          name,
          `received undecodable patch in webhook response: ${(err as Error).message}`,
        );
      }
    }
  } else {
    if (hasPatch) throw bad("validating webhook may not return response.patch");
    if (hasType) throw bad("validating webhook may not return response.patchType");
  }
  return answer;
}

/**
 * Calls one webhook for a request: dry-run rules first (a webhook whose sideEffects are not None or
 * NoneOnDryRun is a 400 for a dry run), then the POST and its checks. Resolves with the answer, even a
 * rejection (the dispatcher turns it into the request's error).
 */
export async function callWebhook(
  hook: Webhook,
  a: AdmissionAttributes,
  mutating: boolean,
): Promise<WebhookAnswer> {
  if (a.dryRun) {
    if (hook.sideEffects === "") {
      throw new CallingWebhookError(hook.name, "Webhook SideEffects is nil");
    }
    if (hook.sideEffects !== "None" && hook.sideEffects !== "NoneOnDryRun") {
      throw badRequest(`admission webhook ${JSON.stringify(hook.name)} does not support dry run`);
    }
  }
  const { uid, review } = admissionReview(a);
  const body = await post(hook, review);
  return verifyResponse(hook.name, uid, mutating, body);
}
