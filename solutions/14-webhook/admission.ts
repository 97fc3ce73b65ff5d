/**
 * LAB 14 (reference). What the StaticSite webhooks decide: the rules a site's schema cannot state (they compare
 * two fields, read the namespace, or compare with the stored object), and the default a schema cannot compute.
 */
import {
  type AdmissionRequest,
  type AdmissionResponse,
  allowed,
  denied,
  patchResponseFromRaw,
} from "kube-controller-workbook/control-plane";
import type { StaticSite } from "kube-controller-workbook/workbook";

/** The DNS zone of a namespace: its sites' domains live in it. */
export function zoneOf(namespace: string): string {
  return `${namespace}.sites.example`;
}

/** The domain a site gets when it names none: `<name>.<namespace>.sites.example`. */
export function defaultDomain(name: string, namespace: string): string {
  return `${name}.${zoneOf(namespace)}`;
}

/** The validating webhook: CREATE and UPDATE of a StaticSite. */
export function validateSite(request: AdmissionRequest): AdmissionResponse {
  const site = request.object as StaticSite | null | undefined;
  if (!site?.spec) return allowed();
  const old = request.oldObject as StaticSite | null | undefined;
  const namespace = request.namespace ?? site.metadata.namespace ?? "";
  // A domain is where the site's certificate and DNS records were issued: it does not move.
  if (request.operation === "UPDATE" && old?.spec?.domain && site.spec.domain !== old.spec.domain)
    return denied(`spec.domain is immutable once set: it is "${old.spec.domain}"`);
  // A site that runs children but has no content serves blank pages.
  if (site.spec.replicas > 0 && site.spec.content.trim() === "")
    return denied("spec.content must not be empty when spec.replicas > 0");
  // One team cannot claim another team's names.
  const domain = site.spec.domain;
  const zone = zoneOf(namespace);
  if (domain !== undefined && domain !== zone && !domain.endsWith(`.${zone}`))
    return denied(`spec.domain "${domain}" is outside this namespace's zone ${zone}`);
  return allowed();
}

/** The mutating webhook: fills in `spec.domain` when the site names none. */
export function defaultSite(request: AdmissionRequest): AdmissionResponse {
  const site = request.object as StaticSite | null | undefined;
  if (!site?.spec || site.spec.domain) return allowed();
  const name = site.metadata.name || request.name;
  // A generateName create has no name yet at admission: the site gets its domain on its first update.
  if (!name) return allowed();
  const namespace = request.namespace ?? site.metadata.namespace ?? "";
  const defaulted: StaticSite = { ...site, spec: { ...site.spec, domain: defaultDomain(name, namespace) } };
  return patchResponseFromRaw(site, defaulted);
}
