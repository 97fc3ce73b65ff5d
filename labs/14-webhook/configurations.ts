/**
 * LAB 14 (skeleton). Which requests reach the StaticSite webhooks, and what the API server does when they
 * cannot be reached: the two webhook configurations. As shipped their webhooks have no rules, so the API
 * server calls them for nothing.
 */
import type {
  V1MutatingWebhookConfiguration,
  V1RuleWithOperations,
  V1ValidatingWebhookConfiguration,
} from "@kubernetes/client-node";

/** The validating webhook's name: kube-apiserver quotes it in every denial. */
export const VALIDATING_WEBHOOK = "validate.staticsites.workbook.dev";

/** The mutating (defaulting) webhook's name. */
export const MUTATING_WEBHOOK = "default.staticsites.workbook.dev";

/** Where the server listens, and the CA that signed its certificate. */
export interface WebhookEndpoint {
  /** The name of both configurations. */
  name: string;
  validateUrl: string;
  mutateUrl: string;
  /** base64 PEM, for `clientConfig.caBundle`. */
  caBundle: string;
}

/**
 * TODO 3: the two configurations. Each webhook needs:
 *         - rules: which operations on which group, version and resource reach it (the spec writes of a
 *           StaticSite; not its status, not its delete, no other kind);
 *         - namespaceSelector: kube-system is never sent to it;
 *         - failurePolicy: what the API server does with a site write when the server is down;
 *         - timeoutSeconds: how long a hung server may hold a write (at most 5);
 *         - sideEffects None, and admissionReviewVersions ["v1"] (both given).
 */
export function siteWebhookConfigurations(endpoint: WebhookEndpoint): {
  validating: V1ValidatingWebhookConfiguration;
  mutating: V1MutatingWebhookConfiguration;
} {
  const rules: V1RuleWithOperations[] = [];
  return {
    validating: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: endpoint.name },
      webhooks: [
        {
          name: VALIDATING_WEBHOOK,
          clientConfig: { url: endpoint.validateUrl, caBundle: endpoint.caBundle },
          rules,
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
        },
      ],
    },
    mutating: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "MutatingWebhookConfiguration",
      metadata: { name: endpoint.name },
      webhooks: [
        {
          name: MUTATING_WEBHOOK,
          clientConfig: { url: endpoint.mutateUrl, caBundle: endpoint.caBundle },
          rules,
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
        },
      ],
    },
  };
}
