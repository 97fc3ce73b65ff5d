/**
 * Turning the node's `/etc/kubernetes/admin.conf` into a kubeconfig for the host, as `kind get kubeconfig`
 * does: the server becomes the port Docker mapped to the node's 6443 on the host, and cluster, user and context
 * are all named `kind-<cluster>`. The credentials (client certificate, CA) are kept as they are: kubeadm signed
 * the serving certificate for 127.0.0.1 and localhost, which is why those are in the certificate SANs.
 */
import { KubeConfig } from "@kubernetes/client-node";

/** Parses admin.conf (YAML or JSON) and returns the host kubeconfig as a client-node KubeConfig. */
export function rewriteKindKubeconfig(adminConf: string, server: string, clusterName = "kind"): KubeConfig {
  const source = new KubeConfig();
  try {
    source.loadFromString(adminConf);
  } catch (err) {
    throw new Error(`admin.conf from the kind node is not a valid kubeconfig: ${(err as Error).message}`);
  }
  const context = source.getContextObject(source.getCurrentContext());
  const cluster = context ? source.getCluster(context.cluster) : source.clusters[0];
  const user = context ? source.getUser(context.user) : source.users[0];
  if (!cluster || !user) throw new Error("admin.conf from the kind node has no cluster or user.");
  const url = new URL(server);
  if (url.protocol !== "https:") throw new Error(`The kind API server URL must be https, got "${server}".`);
  const name = `kind-${clusterName}`;
  const rewritten = new KubeConfig();
  rewritten.loadFromOptions({
    clusters: [{ ...cluster, name, server: url.origin }],
    users: [{ ...user, name }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return rewritten;
}
