/**
 * The `kubeconfig` cluster backend: whatever cluster the current context of `KUBECONFIG` (or
 * `~/.kube/config`) points at, a kind cluster, minikube or a real one. The workbook starts nothing, so
 * `stop()` only cleans up after itself: it deletes the namespaces created through {@link
 * KubeconfigCluster.createNamespace}, never anything else.
 */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { BackendStartOptions, Cluster } from "./cluster-types.js";

/** Options of the kubeconfig backend (`startCluster({backend: "kubeconfig", kubeconfig: {...}})`). */
export interface KubeconfigBackendOptions {
  /** Kubeconfig file (default: `KUBECONFIG`, then `~/.kube/config`). */
  path?: string;
  /** Context to use instead of the current one. */
  context?: string;
}

/** A {@link Cluster} on an existing cluster. */
export interface KubeconfigCluster extends Cluster<undefined> {
  /** Creates a namespace that `stop()` deletes again (tests and labs use one namespace each). */
  createNamespace(name: string): Promise<void>;
}

/** Connects to the current context of a kubeconfig. Registered as the `kubeconfig` backend of `startCluster()`. */
export async function startKubeconfigCluster(
  options: BackendStartOptions & { kubeconfig?: KubeconfigBackendOptions } = {},
): Promise<KubeconfigCluster> {
  const opts = options.kubeconfig ?? {};
  const kc = new KubeConfig();
  if (opts.path) kc.loadFromFile(opts.path);
  else kc.loadFromDefault();
  if (opts.context) kc.setCurrentContext(opts.context);
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new Error(
      "kubeconfig backend: no current cluster. Set KUBECONFIG (or pass kubeconfig.path) to a kubeconfig with a current-context.",
    );
  }
  const path =
    opts.path ??
    process.env.KUBECONFIG?.split(process.platform === "win32" ? ";" : ":")[0] ??
    "~/.kube/config";
  options.log?.(`kubeconfig: using context "${kc.getCurrentContext()}" (${cluster.server})`);
  const api = kc.makeApiClient(CoreV1Api);
  const created = new Set<string>();
  let stopped: Promise<void> | undefined;
  return {
    backend: "kubeconfig",
    kubeConfig: kc,
    kubeconfigPath: path,
    instruments: undefined,
    async createNamespace(name: string) {
      await api.createNamespace({ body: { metadata: { name } } });
      created.add(name);
    },
    stop() {
      stopped ??= (async () => {
        for (const name of created) {
          await api.deleteNamespace({ name }).catch(() => undefined);
        }
        created.clear();
      })();
      return stopped;
    },
  };
}
