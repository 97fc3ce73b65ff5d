/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration, after their
 * `SetDefaults_*` (pkg/apis/admissionregistration/v1/defaults.go) and validation
 * (pkg/apis/admissionregistration/validation/validation.go) in kube-apiserver 1.34. Both are cluster-scoped; the
 * webhook admission step (`../../admission/webhooks/`) reads them live from storage on every write.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { dns1035LabelErrors, dns1123SubdomainErrors } from "../../../../apimachinery/validation/names.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";

/** `SetDefaults_Rule`, `SetDefaults_ValidatingWebhook` / `SetDefaults_MutatingWebhook`, `SetDefaults_ServiceReference`. */
function defaultWebhooks(config: KubeObject, mutating: boolean): void {
  if (!Array.isArray(config.webhooks)) return;
  for (const hook of config.webhooks) {
    if (!isJsonObject(hook)) continue;
    setIfAbsent(hook, "failurePolicy", "Fail");
    setIfAbsent(hook, "matchPolicy", "Equivalent");
    setIfAbsent(hook, "namespaceSelector", {});
    setIfAbsent(hook, "objectSelector", {});
    setIfAbsent(hook, "timeoutSeconds", 10);
    if (mutating) setIfAbsent(hook, "reinvocationPolicy", "Never");
    if (Array.isArray(hook.rules)) {
      for (const rule of hook.rules) if (isJsonObject(rule)) setIfAbsent(rule, "scope", "*");
    }
    const service = isJsonObject(hook.clientConfig) ? hook.clientConfig.service : undefined;
    if (isJsonObject(service)) setIfAbsent(service, "port", 443);
  }
}

const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];
const SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const REVIEW_VERSIONS = ["v1", "v1beta1"];

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((s) => (typeof s === "string" ? s : String(s))) : [];
}

/** `utilvalidation.IsFullyQualifiedName`. */
function validateFullyQualifiedName(path: string, name: unknown, errs: FieldErrors): void {
  if (typeof name !== "string" || name === "") {
    errs.required(path);
    return;
  }
  const dns = dns1123SubdomainErrors(name);
  if (dns.length > 0) errs.invalid(path, name, dns.join(","));
  else if (name.split(".").length < 3) {
    errs.invalid(path, name, "should be a domain with at least three segments separated by dots");
  }
}

/** `validateResources`: wildcard combinations that would be ambiguous are refused. */
function validateResources(resources: string[], path: string, errs: FieldErrors): void {
  if (resources.length === 0) errs.required(path);
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let doubleWild = false;
  let singleWild = false;
  let plain = false;
  resources.forEach((resSub, i) => {
    if (resSub === "") {
      errs.required(`${path}[${i}]`);
      return;
    }
    if (resSub === "*/*") doubleWild = true;
    if (resSub === "*") singleWild = true;
    const slash = resSub.indexOf("/");
    if (slash < 0) {
      plain = resSub !== "*";
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildSub.has(res))
      errs.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`);
    if (wildRes.has(sub))
      errs.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`);
    if (sub === "*") wildSub.add(res);
    if (res === "*") wildRes.add(sub);
  });
  if (resources.length > 1 && doubleWild) {
    errs.invalid(path, resources, "if '*/*' is present, must not specify other resources");
  }
  if (singleWild && plain) {
    errs.invalid(path, resources, "if '*' is present, must not specify other resources without subresources");
  }
}

/** `validateRuleWithOperations` and `validateRule`. */
export function validateRule(rule: JsonObject, path: string, errs: FieldErrors): void {
  const ops = strings(rule.operations);
  if (ops.length === 0) errs.required(`${path}.operations`);
  if (ops.length > 1 && ops.includes("*")) {
    errs.invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations");
  }
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.notSupported(`${path}.operations[${i}]`, op, OPERATIONS);
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.required(`${path}.apiGroups`);
  if (groups.length > 1 && groups.includes("*")) {
    errs.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups");
  }
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.required(`${path}.apiVersions`);
  if (versions.length > 1 && versions.includes("*")) {
    errs.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions");
  }
  versions.forEach((v, i) => {
    if (v === "") errs.required(`${path}.apiVersions[${i}]`);
  });
  validateResources(strings(rule.resources), `${path}.resources`, errs);
  if (typeof rule.scope === "string" && !SCOPES.includes(rule.scope)) {
    errs.notSupported(`${path}.scope`, rule.scope, SCOPES);
  }
}

/** `webhook.ValidateWebhookURL` with https forced. */
function validateWebhookUrl(url: string, path: string, errs: FieldErrors): void {
  const form = "; desired format: https://host[/path]";
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    errs.required(path, `url must be a valid URL: parse ${JSON.stringify(url)}: invalid URL${form}`);
    return;
  }
  const scheme = u.protocol.replace(/:$/, "");
  if (scheme !== "https") errs.invalid(path, scheme, `'https' is the only allowed URL scheme${form}`);
  if (u.host === "") errs.invalid(path, u.host, `host must be specified${form}`);
  if (u.username !== "" || u.password !== "") {
    errs.invalid(
      path,
      u.password ? `${u.username}:xxxxx` : u.username,
      "user information is not permitted in the URL",
    );
  }
  if (u.hash.length > 1) errs.invalid(path, u.hash.slice(1), "fragments are not permitted in the URL");
  if (u.search.length > 1)
    errs.invalid(path, u.search.slice(1), "query parameters are not permitted in the URL");
}

/**
 * A webhook `clientConfig` as kube validates it (admission webhooks and CRD conversion webhooks): exactly one of
 * `url` (`ValidateWebhookURL`, https forced) or `service` (`ValidateWebhookService`).
 */
export function validateWebhookClientConfig(cc: JsonObject, path: string, errs: FieldErrors): void {
  const hasUrl = typeof cc.url === "string";
  const hasService = isJsonObject(cc.service);
  if (hasUrl === hasService) {
    errs.required(path, "exactly one of url or service is required");
  } else if (hasUrl) {
    validateWebhookUrl(cc.url as string, `${path}.url`, errs);
  } else {
    const svc = cc.service as JsonObject;
    const sp = `${path}.service`;
    if (typeof svc.name !== "string" || svc.name === "")
      errs.required(`${sp}.name`, "service name is required");
    if (typeof svc.namespace !== "string" || svc.namespace === "") {
      errs.required(`${sp}.namespace`, "service namespace is required");
    }
    const port = typeof svc.port === "number" ? svc.port : 443;
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      errs.invalid(`${sp}.port`, port, "port is not valid: must be between 1 and 65535, inclusive");
    }
  }
}

/** `validateValidatingWebhook` / `validateMutatingWebhook`. */
function validateWebhook(hook: JsonObject, path: string, errs: FieldErrors, mutating: boolean): void {
  validateFullyQualifiedName(`${path}.name`, hook.name, errs);
  const rules = Array.isArray(hook.rules) ? hook.rules : [];
  rules.forEach((r, i) => {
    validateRule(isJsonObject(r) ? r : {}, `${path}.rules[${i}]`, errs);
  });
  if (typeof hook.failurePolicy === "string" && !["Fail", "Ignore"].includes(hook.failurePolicy)) {
    errs.notSupported(`${path}.failurePolicy`, hook.failurePolicy, ["Fail", "Ignore"]);
  }
  if (typeof hook.matchPolicy === "string" && !["Equivalent", "Exact"].includes(hook.matchPolicy)) {
    errs.notSupported(`${path}.matchPolicy`, hook.matchPolicy, ["Equivalent", "Exact"]);
  }
  if (hook.sideEffects === undefined || hook.sideEffects === null) {
    errs.required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(", ")}`);
  } else if (!SIDE_EFFECTS.includes(String(hook.sideEffects))) {
    errs.notSupported(`${path}.sideEffects`, hook.sideEffects, SIDE_EFFECTS);
  }
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === "number" && (timeout > 30 || timeout < 1)) {
    errs.invalid(`${path}.timeoutSeconds`, timeout, "the timeout value must be between 1 and 30 seconds");
  }
  const cc = isJsonObject(hook.clientConfig) ? hook.clientConfig : {};
  validateWebhookClientConfig(cc, `${path}.clientConfig`, errs);
  if (mutating) {
    const policy = hook.reinvocationPolicy;
    if (typeof policy === "string" && !["IfNeeded", "Never"].includes(policy)) {
      errs.notSupported(`${path}.reinvocationPolicy`, policy, ["IfNeeded", "Never"]);
    }
  }
}

/** `validateAdmissionReviewVersions` (a recognized version is required). */
function validateReviewVersions(versions: string[], path: string, errs: FieldErrors): void {
  if (versions.length < 1) {
    errs.required(path, `must specify one of ${REVIEW_VERSIONS.join(", ")}`);
    return;
  }
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.invalid(`${path}[${i}]`, v, "duplicate version");
      return;
    }
    seen.add(v);
    for (const e of dns1035LabelErrors(v)) errs.invalid(`${path}[${i}]`, v, e);
    if (REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (!accepted) errs.invalid(path, versions, `must include at least one of ${REVIEW_VERSIONS.join(", ")}`);
}

/** `validateValidatingWebhookConfiguration` / `validateMutatingWebhookConfiguration`. */
function validateConfiguration(config: KubeObject, errs: FieldErrors, mutating: boolean): void {
  const hooks = Array.isArray(config.webhooks) ? config.webhooks : [];
  const names = new Set<string>();
  hooks.forEach((h, i) => {
    const hook = isJsonObject(h) ? h : {};
    const path = `webhooks[${i}]`;
    validateWebhook(hook, path, errs, mutating);
    validateReviewVersions(strings(hook.admissionReviewVersions), `${path}.admissionReviewVersions`, errs);
    if (typeof hook.name === "string" && hook.name !== "") {
      if (names.has(hook.name)) errs.duplicate(`${path}.name`, hook.name);
      else names.add(hook.name);
    }
  });
}

/** The two webhook configuration kinds, served from data. */
export const ADMISSION_KINDS: readonly KindSpec[] = [
  {
    group: "admissionregistration.k8s.io",
    version: "v1",
    resource: "mutatingwebhookconfigurations",
    kind: "MutatingWebhookConfiguration",
    namespaced: false,
    generation: "webhooks",
    defaults: (c) => defaultWebhooks(c, true),
    validate: (c, errs) => validateConfiguration(c, errs, true),
  },
  {
    group: "admissionregistration.k8s.io",
    version: "v1",
    resource: "validatingwebhookconfigurations",
    kind: "ValidatingWebhookConfiguration",
    namespaced: false,
    generation: "webhooks",
    defaults: (c) => defaultWebhooks(c, false),
    validate: (c, errs) => validateConfiguration(c, errs, false),
  },
];
