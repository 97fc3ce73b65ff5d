/**
 * LAB 14 (skeleton). What the StaticSite webhooks decide. As shipped both handlers allow everything and change
 * nothing; the TODOs say what each must do (the lab's README lists the rules and the default).
 */
import {
  type AdmissionRequest,
  type AdmissionResponse,
  allowed,
} from "kube-controller-workbook/control-plane";

/** The DNS zone of a namespace: its sites' domains live in it. */
export function zoneOf(namespace: string): string {
  return `${namespace}.sites.example`;
}

/** The domain a site gets when it names none: `<name>.<namespace>.sites.example`. */
export function defaultDomain(name: string, namespace: string): string {
  return `${name}.${zoneOf(namespace)}`;
}

/**
 * TODO 1: the validating webhook, called on CREATE and UPDATE of a StaticSite (`request.object` is the site,
 *         `request.oldObject` the stored one on an UPDATE). Refuse with `denied(message)`, the message naming
 *         the field:
 *         - spec.replicas > 0 with an empty spec.content;
 *         - a spec.domain outside the namespace's zone (`zoneOf(request.namespace)`, or a name under it);
 *         - an UPDATE that changes a spec.domain the stored site already has.
 *         Everything else: `allowed()`.
 */
export function validateSite(_request: AdmissionRequest): AdmissionResponse {
  return allowed();
}

/**
 * TODO 2: the mutating webhook: a site without spec.domain gets `defaultDomain(name, namespace)`; a site that
 *         names a domain keeps it. Answer with the JSON Patch from the request's object to your copy
 *         (`patchResponseFromRaw(original, mutated)`).
 */
export function defaultSite(_request: AdmissionRequest): AdmissionResponse {
  return allowed();
}
