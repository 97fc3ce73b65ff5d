/**
 * Which webhooks a request calls, after `generic.Webhook.ShouldCallHook` and its predicates
 * (k8s.io/apiserver plugin/webhook/predicates: `rules/rules.go`, `namespace/matcher.go`, `object/matcher.go`):
 * - a rule matches when its scope, operations, apiGroups, apiVersions and resources all match (each list with
 *   `*`; a resource `pods/status` names a subresource, `*` then `/status` any resource's status, `pods/*` pods and
 *   every subresource of pods);
 * - the namespaceSelector is checked against the request's namespace labels; a cluster-scoped object always
 *   matches, and a Namespace's own create or update is checked against its own labels;
 * - the objectSelector matches when the new or the old object's labels match;
 * - requests on the webhook configurations themselves never call webhooks (so a broken webhook cannot lock
 *   its own configuration).
 */

import { notFound } from "../../../../apimachinery/errors.js";
import type { KubeObject } from "../../../../apimachinery/object.js";
import type { JsonObject } from "../../json.js";
import { selectorOf, type Webhook, type WebhookRule } from "./configuration.js";

/** An admission operation (`admission.Operation`). */
export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** What admission knows about one request (`admission.Attributes`). */
export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  kind: string;
  subresource: string;
  /** The request's namespace ("" for cluster-scoped; a Namespace's own name for namespaces). */
  namespace: string;
  /** The object's name ("" when a create asks the server to generate it). */
  name: string;
  /** The new object (CREATE, UPDATE), undefined for DELETE. */
  object: KubeObject | undefined;
  /** The stored object (UPDATE, DELETE). */
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions, as the request gave them. */
  options: JsonObject;
}

function exactOrWildcard(items: readonly string[], requested: string): boolean {
  return items.some((i) => i === "*" || i === requested);
}

function isNamespaceResource(a: AdmissionAttributes): boolean {
  return a.group === "" && a.version === "v1" && a.resource === "namespaces";
}

/** `rules.Matcher.Matches`. */
export function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  const scopeOk =
    rule.scope === "*" ||
    (rule.scope === "Namespaced" && !isNamespaceResource(a) && a.namespace !== "") ||
    (rule.scope === "Cluster" && (isNamespaceResource(a) || a.namespace === ""));
  if (!scopeOk) return false;
  if (!rule.operations.some((op) => op === "*" || op === a.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, a.group)) return false;
  if (!exactOrWildcard(rule.apiVersions, a.version)) return false;
  return rule.resources.some((resSub) => {
    const slash = resSub.indexOf("/");
    const res = slash < 0 ? resSub : resSub.slice(0, slash);
    const sub = slash < 0 ? "" : resSub.slice(slash + 1);
    return (res === "*" || res === a.resource) && (sub === "*" || sub === a.subresource);
  });
}

/** `rules.IsExemptAdmissionConfigurationResource`: admission configuration kinds are never sent to webhooks. */
export function isExemptResource(a: AdmissionAttributes): boolean {
  return (
    a.group === "admissionregistration.k8s.io" &&
    [
      "ValidatingWebhookConfiguration",
      "MutatingWebhookConfiguration",
      "ValidatingAdmissionPolicy",
      "ValidatingAdmissionPolicyBinding",
      "MutatingAdmissionPolicy",
      "MutatingAdmissionPolicyBinding",
    ].includes(a.kind)
  );
}

/** The labels of a namespace, or undefined when it does not exist. */
export type NamespaceLabels = (name: string) => Record<string, string> | undefined;

/**
 * `namespace.Matcher.MatchNamespaceSelector` (webhooks and admission policies alike): throws 404 NotFound (the
 * namespace) when the selector is not empty and the namespace is gone, as kube-apiserver answers.
 */
export function namespaceSelectorMatches(
  namespaceSelector: JsonObject,
  a: AdmissionAttributes,
  labelsOf: NamespaceLabels,
): boolean {
  if (a.namespace === "" && a.resource !== "namespaces") return true;
  const selector = selectorOf(namespaceSelector);
  if (selector.empty) return true;
  let labels: Record<string, string> | undefined;
  if (
    a.resource === "namespaces" &&
    a.subresource === "" &&
    (a.operation === "CREATE" || a.operation === "UPDATE")
  ) {
    labels = a.object?.metadata?.labels ?? {};
  } else {
    labels = labelsOf(a.namespace);
    if (labels === undefined) throw notFound({ group: "", resource: "namespaces", name: a.namespace });
  }
  return selector.matches(labels);
}

/** `object.Matcher.MatchObjectSelector`: the new or the old object's labels. */
export function objectSelectorMatches(objectSelector: JsonObject, a: AdmissionAttributes): boolean {
  const selector = selectorOf(objectSelector);
  if (selector.empty) return true;
  const matches = (o: KubeObject | undefined): boolean =>
    o !== undefined && selector.matches(o.metadata?.labels ?? {});
  return matches(a.object) || matches(a.oldObject);
}

/**
 * Whether `hook` is called for the request (`ShouldCallHook`): a rule must match (matchPolicy Equivalent also
 * matches the same resource served at another version or group in kube-apiserver; here both policies behave as
 * Exact, see FIDELITY.md), then the object and namespace selectors.
 */
export function shouldCallHook(hook: Webhook, a: AdmissionAttributes, labelsOf: NamespaceLabels): boolean {
  if (isExemptResource(a)) return false;
  if (!hook.rules.some((r) => ruleMatches(r, a))) return false;
  // A namespace that is gone is an error only for a webhook that would otherwise be called.
  return (
    objectSelectorMatches(hook.objectSelector, a) &&
    namespaceSelectorMatches(hook.namespaceSelector, a, labelsOf)
  );
}
