/**
 * LAB 14 (reference). Which requests reach the StaticSite webhooks, and what the API server does when they
 * cannot be reached: the two webhook configurations.
 */
import type {
  V1MutatingWebhookConfiguration,
  V1RuleWithOperations,
  V1ValidatingWebhookConfiguration,
} from "@kubernetes/client-node";
import { WORKBOOK_GROUP, WORKBOOK_VERSION } from "kube-controller-workbook/workbook";

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

/** The two configurations that send StaticSite writes to the server at `endpoint`. */
export function siteWebhookConfigurations(endpoint: WebhookEndpoint): {
  validating: V1ValidatingWebhookConfiguration;
  mutating: V1MutatingWebhookConfiguration;
} {
  // Writes of a site's spec only: not its /status (the operator's own writes), not its delete (nothing to
  // check, and a webhook that is down must never keep a site from going away), no other kind.
  const rules: V1RuleWithOperations[] = [
    {
      operations: ["CREATE", "UPDATE"],
      apiGroups: [WORKBOOK_GROUP],
      apiVersions: [WORKBOOK_VERSION],
      resources: ["staticsites"],
      scope: "Namespaced",
    },
  ];
  const common = {
    rules,
    // kube-system is never sent to the webhook: whatever happens to the webhook, the cluster's own
    // namespace keeps working (the name label is set on every namespace by the API server).
    namespaceSelector: {
      matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system"] }],
    },
    // Down means no site is written unchecked; kube-system is exempt (above), so the cluster is not.
    failurePolicy: "Fail",
    // A hung server holds each site write this long, not the default 10 s.
    timeoutSeconds: 3,
    // The handlers only compute an answer: a dry run may call them.
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
  };
  return {
    validating: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: endpoint.name },
      webhooks: [
        {
          name: VALIDATING_WEBHOOK,
          clientConfig: { url: endpoint.validateUrl, caBundle: endpoint.caBundle },
          ...common,
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
          ...common,
        },
      ],
    },
  };
}
