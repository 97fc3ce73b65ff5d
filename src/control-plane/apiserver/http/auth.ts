/**
 * Bearer-token authentication, the embedded server's only authenticator: every request must carry
 * `Authorization: Bearer <token>` with the token from the kubeconfig, or it gets a 401 Unauthorized Status,
 * as kube-apiserver answers when no authenticator accepts a request and anonymous auth is off.
 */
import { timingSafeEqual } from "node:crypto";
import { unauthorized } from "../../../apimachinery/errors.js";
import type { ApiRequest } from "./transport.js";

/** Throws 401 unless the request carries exactly `Bearer <token>` (compared in constant time). */
export function authenticate(req: ApiRequest, token: string): void {
  const header = req.headers.authorization;
  if (typeof header !== "string" || !/^bearer /i.test(header)) throw unauthorized();
  const given = Buffer.from(header.slice(7).trim());
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized();
}
