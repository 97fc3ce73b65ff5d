/**
 * LAB 14 (given, complete). The StaticSite admission webhook as a process: it starts a webhook server with the
 * two handlers of `admission.ts`, registers the two configurations `configurations.ts` builds, and takes them
 * down again. In a kubebuilder project this is the manager's webhook server plus the manifests in
 * `config/webhook/`; here the configurations are written through the API, as `kubectl apply` would write them.
 */
import { AdmissionregistrationV1Api, type KubeConfig } from "@kubernetes/client-node";
import { isNotFound } from "kube-controller-workbook";
import {
  type AdmissionRequest,
  startWebhookServer,
  type WebhookServer,
} from "kube-controller-workbook/control-plane";
import { defaultSite, validateSite } from "./admission.js";
import { siteWebhookConfigurations } from "./configurations.js";

/** How the grader starts the webhook. Keep this contract. */
export interface SiteWebhookOptions {
  kubeConfig: KubeConfig;
  /** The name of both configurations (they are cluster-scoped: one name per running webhook). */
  name: string;
  /** Called with every review the server receives, before your handler answers it. */
  onReview?: (webhook: "validate" | "mutate", request: AdmissionRequest) => void;
}

/** A running webhook. */
export interface SiteWebhook {
  readonly server: WebhookServer;
  /** Stops the server and leaves the configurations registered: a webhook that is down. */
  stopServer(): Promise<void>;
  /** Deletes the configurations, then stops the server. */
  stop(): Promise<void>;
}

/** Starts the server, then registers the configurations that send StaticSite writes to it. */
export async function startSiteWebhook(options: SiteWebhookOptions): Promise<SiteWebhook> {
  const { kubeConfig, name, onReview } = options;
  const server = await startWebhookServer({
    validate: (request) => {
      onReview?.("validate", request);
      return validateSite(request);
    },
    mutate: (request) => {
      onReview?.("mutate", request);
      return defaultSite(request);
    },
  });
  const api = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  const ignoreMissing = (err: unknown) => {
    if (!isNotFound(err)) throw err;
  };
  const unregister = async () => {
    await api.deleteValidatingWebhookConfiguration({ name }).catch(ignoreMissing);
    await api.deleteMutatingWebhookConfiguration({ name }).catch(ignoreMissing);
  };
  const { validating, mutating } = siteWebhookConfigurations({
    name,
    validateUrl: server.validateUrl,
    mutateUrl: server.mutateUrl,
    caBundle: server.caBundle,
  });
  try {
    await unregister(); // what a previous run with the same name left behind
    await api.createValidatingWebhookConfiguration({ body: validating });
    await api.createMutatingWebhookConfiguration({ body: mutating });
  } catch (err) {
    await unregister().catch(() => {});
    await server.stop();
    throw err;
  }
  return {
    server,
    stopServer: () => server.stop(),
    async stop() {
      await unregister();
      await server.stop();
    },
  };
}
