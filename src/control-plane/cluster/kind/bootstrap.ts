/**
 * The steps `kind create cluster` runs inside a started node, done with `docker exec` through Testcontainers:
 * read `/kind/version` (and `/kind/kubeadm-skip-phases` when the image has one), write the kubeadm
 * configuration, `kubeadm init`, remove the control-plane taint (a
 * single node must run workloads), install the CNI and storage manifests the image ships, and read back
 * `/etc/kubernetes/admin.conf`.
 */
import type { StartedTestContainer } from "testcontainers";
import { renderCniManifest } from "./cni.js";
import { KIND_POD_SUBNET, renderKubeadmConfig } from "./kubeadm-config.js";

/** Options of {@link bootstrapKindNode}. */
export interface KindBootstrapOptions {
  nodeName: string;
  clusterName: string;
  /** Extra API server certificate SANs (the Docker host name). */
  certSans: string[];
  log: (line: string) => void;
}

/** What bootstrapping produced. */
export interface KindBootstrapResult {
  kubernetesVersion: string;
  nodeIp: string;
  /** `/etc/kubernetes/admin.conf` as written by kubeadm (server is the node's in-network address). */
  adminConf: string;
}

/** Runs a command in the node; throws with its output when it exits non-zero. */
async function execOk(node: StartedTestContainer, command: string[], what: string): Promise<string> {
  const result = await node.exec(command);
  if (result.exitCode !== 0) {
    throw new Error(
      `${what} failed in the kind node (exit ${result.exitCode}):\n${result.output.slice(-4000)}`,
    );
  }
  return result.stdout;
}

/** Diagnostics for a failed kubeadm init: the kubelet journal and the containers containerd knows. */
async function kubeletDiagnostics(node: StartedTestContainer): Promise<string> {
  const journal = await node.exec(["sh", "-c", "journalctl -u kubelet --no-pager | tail -n 40"]);
  const containers = await node.exec(["crictl", "ps", "-a"]);
  return `kubelet journal (tail):\n${journal.output}\ncrictl ps -a:\n${containers.output}`;
}

/** Bootstraps a single control-plane node; see the module comment for the steps. */
export async function bootstrapKindNode(
  node: StartedTestContainer,
  options: KindBootstrapOptions,
): Promise<KindBootstrapResult> {
  const { log } = options;
  const kubernetesVersion = (await execOk(node, ["cat", "/kind/version"], "reading /kind/version")).trim();
  const network = node.getNetworkNames()[0];
  if (!network) throw new Error("The kind node container is on no network.");
  const nodeIp = node.getIpAddress(network);
  // Phases the image asks to skip (no image for that addon in it); kindest/node has no such file.
  const skipFile = await node.exec(["cat", "/kind/kubeadm-skip-phases"]);
  const skipPhases =
    skipFile.exitCode === 0 ? skipFile.stdout.split("\n").filter((l) => l.trim() !== "") : [];
  if (skipPhases.length > 0) log(`kind: the image skips kubeadm phases ${skipPhases.join(", ")}`);
  const config = renderKubeadmConfig({
    skipPhases,
    kubernetesVersion,
    nodeIp,
    nodeName: options.nodeName,
    clusterName: options.clusterName,
    certSans: options.certSans,
  });
  await node.copyContentToContainer([{ content: config, target: "/kind/kubeadm.conf" }]);

  log(`kind: kubeadm init (Kubernetes ${kubernetesVersion}, node ${nodeIp})`);
  const init = await node.exec([
    "kubeadm",
    "init",
    "--config=/kind/kubeadm.conf",
    "--skip-token-print",
    "--v=6",
  ]);
  if (init.exitCode !== 0) {
    throw new Error(
      `kubeadm init failed in the kind node (exit ${init.exitCode}):\n${init.output.slice(-3000)}\n${await kubeletDiagnostics(node)}`,
    );
  }

  log("kind: removing the control-plane taint");
  // Both may find nothing to remove; that is fine.
  await node.exec(["kubectl", "taint", "nodes", "--all", "node-role.kubernetes.io/control-plane-"]);
  await node.exec([
    "kubectl",
    "label",
    "nodes",
    "--all",
    "node.kubernetes.io/exclude-from-external-load-balancers-",
  ]);

  log("kind: installing the CNI and storage manifests the image ships");
  const cni = await execOk(node, ["cat", "/kind/manifests/default-cni.yaml"], "reading the CNI manifest");
  await node.copyContentToContainer([
    { content: renderCniManifest(cni, KIND_POD_SUBNET), target: "/kind/cni.yaml" },
  ]);
  await execOk(node, ["kubectl", "apply", "-f", "/kind/cni.yaml"], "applying the CNI manifest");
  await execOk(
    node,
    ["kubectl", "apply", "-f", "/kind/manifests/default-storage.yaml"],
    "applying the storage manifest",
  );

  const adminConf = await execOk(node, ["cat", "/etc/kubernetes/admin.conf"], "reading admin.conf");
  return { kubernetesVersion, nodeIp, adminConf };
}
