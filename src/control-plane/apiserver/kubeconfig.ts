/**
 * The kubeconfig the embedded API server hands to clients: one cluster (server URL plus the CA that signed its
 * serving certificate), one user (a bearer token) and one context, the same three-part shape `kind` or
 * `kubeadm` write. JSON is valid YAML, so the file is written as JSON and read by kubectl and client-node alike.
 */
import { writeFile } from "node:fs/promises";
import { KubeConfig } from "@kubernetes/client-node";

/** What a kubeconfig for the embedded server needs. */
export interface KubeconfigParams {
  /** `https://127.0.0.1:<port>`. */
  server: string;
  /** PEM of the CA that signed the serving certificate. */
  caPem: string;
  /** Bearer token every request must carry. */
  token: string;
  /** Name used for the cluster, user and context (default `workbook`). */
  name?: string;
  /** Namespace of the context (default: none, i.e. `default`). */
  namespace?: string;
}

/** Builds the kubeconfig document (`apiVersion: v1`, `kind: Config`) with `certificate-authority-data`. */
export function kubeconfigDocument(p: KubeconfigParams): Record<string, unknown> {
  const name = p.name ?? "workbook";
  const context: Record<string, string> = { cluster: name, user: name };
  if (p.namespace) context.namespace = p.namespace;
  return {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name,
        cluster: {
          server: p.server,
          "certificate-authority-data": Buffer.from(p.caPem).toString("base64"),
        },
      },
    ],
    users: [{ name, user: { token: p.token } }],
    contexts: [{ name, context }],
    "current-context": name,
    preferences: {},
  };
}

/** Writes the kubeconfig to `path` (mode 0600: it holds a credential). */
export async function writeKubeconfig(path: string, p: KubeconfigParams): Promise<void> {
  await writeFile(path, `${JSON.stringify(kubeconfigDocument(p), null, 2)}\n`, { mode: 0o600 });
}

/** A client-node `KubeConfig` for the same cluster, built in memory (no file read). */
export function kubeConfigFor(p: KubeconfigParams): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(kubeconfigDocument(p)));
  return kc;
}
