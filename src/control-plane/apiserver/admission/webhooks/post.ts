/**
 * The HTTPS client of kube-apiserver's webhooks (k8s.io/apiserver `pkg/util/webhook`, a client-go REST client per
 * webhook): one JSON POST to `clientConfig.url`, trusting `caBundle`, bounded in time and size. Admission webhooks
 * (`call.ts`) and CRD conversion webhooks (`registry/crd-conversion-webhook.ts`) both call through it and word its
 * failures their own way.
 */
import type { ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { JsonObject } from "../../json.js";

/** Largest webhook answer read (a bigger one is a failed call, not an out-of-memory). */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Where a webhook is called: a `clientConfig` with its CA bundle decoded to PEM, and the call's time bound. */
export interface WebhookEndpoint {
  url?: string;
  service?: { namespace?: unknown; name?: unknown };
  /** PEM bundle (`clientConfig.caBundle` decoded), or undefined for the system roots. */
  caBundle?: string;
  timeoutSeconds: number;
}

/** No REST client could be built for the webhook (kube: `could not get REST client: ...`). */
export class WebhookClientError extends Error {
  constructor(reason: string) {
    super(`could not get REST client: ${reason}`);
  }
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
 * POSTs `body` as JSON to the endpoint's url with `?timeout=<n>s` (as client-go adds it), trusting its CA bundle,
 * and resolves with the decoded answer. Rejects with a {@link WebhookClientError} when no client can be built
 * (a Service reference, a bad URL or CA bundle), otherwise with an Error worded as client-go's `Do().Into()`:
 * `Post "<url>": <cause>` when the call fails or times out, `an error on the server (...)` for a non-2xx answer,
 * `couldn't get version/kind; json parse error: ...` for one that is not JSON.
 */
export function postWebhook(endpoint: WebhookEndpoint, body: JsonObject): Promise<unknown> {
  if (endpoint.url === undefined) {
    const svc = endpoint.service ?? {};
    return Promise.reject(
      new WebhookClientError(
        `the embedded API server cannot resolve service ${String(svc.namespace)}/${String(svc.name)} (it runs no Services or endpoints); use clientConfig.url`,
      ),
    );
  }
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    return Promise.reject(new WebhookClientError(`invalid URL ${JSON.stringify(endpoint.url)}`));
  }
  url.searchParams.set("timeout", `${endpoint.timeoutSeconds}s`);
  const shown = url.toString();
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    let settled = false;
    let req: ClientRequest | undefined;
    let timer: NodeJS.Timeout | undefined;
    const fail = (cause: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      reject(new Error(`Post ${JSON.stringify(shown)}: ${cause}`));
    };
    try {
      req = httpsRequest(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "content-length": Buffer.byteLength(text),
          },
          ...(endpoint.caBundle !== undefined ? { ca: endpoint.caBundle } : {}),
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
            const answer = Buffer.concat(chunks).toString("utf8");
            const code = res.statusCode ?? 0;
            if (code < 200 || code > 206) {
              const shownBody = answer.length > 256 ? `${answer.slice(0, 256)}...` : answer;
              reject(
                new Error(
                  `an error on the server (${JSON.stringify(shownBody)}) has prevented the request from succeeding`,
                ),
              );
              return;
            }
            try {
              resolve(JSON.parse(answer));
            } catch (err) {
              reject(new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`));
            }
          });
        },
      );
    } catch (err) {
      // A caBundle that is not PEM fails building the client (kube: `could not get REST client`).
      settled = true;
      reject(new WebhookClientError((err as Error).message));
      return;
    }
    timer = setTimeout(() => fail("context deadline exceeded"), endpoint.timeoutSeconds * 1000);
    req.on("error", (err: NodeJS.ErrnoException) => fail(goCause(err, url.host)));
    req.end(text);
  });
}
