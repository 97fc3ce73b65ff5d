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
import { badRequest, type Status, type StatusError, statusToError } from "../../../../apimachinery/errors.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { Webhook } from "./configuration.js";
import type { AdmissionAttributes } from "./matching.js";
import { postWebhook, WebhookClientError } from "./post.js";

/** The user the embedded server authenticates every bearer-token request as. */
export const ADMISSION_USER: JsonObject = {
  username: "workbook-admin",
  groups: ["system:masters", "system:authenticated"],
};

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

/**
 * POSTs the review and resolves with the decoded answer body; rejects with a {@link CallingWebhookError} when
 * the webhook cannot be reached, does not answer within `timeoutSeconds`, or answers other than 2xx JSON.
 */
async function post(hook: Webhook, review: JsonObject): Promise<unknown> {
  try {
    return await postWebhook(hook, review);
  } catch (err) {
    if (err instanceof WebhookClientError) throw new CallingWebhookError(hook.name, err.message);
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${(err as Error).message}`);
  }
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
