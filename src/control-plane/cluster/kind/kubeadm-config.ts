/**
 * The kubeadm configuration the kind backend writes to `/kind/kubeadm.conf` before `kubeadm init`, with the
 * settings kind's own template uses for a single control-plane node: containerd's socket, the systemd cgroup
 * driver under `/kubelet`, no swap check, eviction and image GC thresholds that never fire on a laptop, and the
 * preflight phase skipped (the node is a container, not a machine). kubeadm API v1beta3 serves Kubernetes
 * 1.23-1.35; from 1.36 kind renders v1beta4, whose `extraArgs` are lists of `{name, value}`.
 *
 * Documents are written as JSON, which is valid YAML: kubeadm reads them the same and tests can parse them.
 */

/** What the rendered configuration depends on. */
export interface KubeadmConfigParams {
  /** Content of `/kind/version`, e.g. `v1.34.0`. */
  kubernetesVersion: string;
  /** The node container's IP on its network. */
  nodeIp: string;
  /** Node name (and container hostname). */
  nodeName: string;
  /** Cluster name (default `kind`). */
  clusterName?: string;
  /** Extra subject alternative names of the API server certificate (the Docker host, 127.0.0.1, localhost). */
  certSans?: string[];
  /** Pod network (default kind's 10.244.0.0/16). */
  podSubnet?: string;
  /** Service network (default kind's 10.96.0.0/16). */
  serviceSubnet?: string;
  /**
   * kubeadm phases skipped besides preflight: a node image without some addon's image lists them in
   * `/kind/kubeadm-skip-phases` (the image `workbook kind build-image` makes skips `addon/coredns` and
   * `addon/kube-proxy`).
   */
  skipPhases?: string[];
}

/** kind's default pod network. */
export const KIND_POD_SUBNET = "10.244.0.0/16";
/** kind's default Service network. */
export const KIND_SERVICE_SUBNET = "10.96.0.0/16";

/** Parses `v1.34.0` (or `1.34.0-rc.1`) into major and minor numbers; throws on anything else. */
export function parseKubernetesVersion(version: string): { major: number; minor: number } {
  const match = /^v?(\d+)\.(\d+)\.\d+/.exec(version.trim());
  if (!match) throw new Error(`Cannot parse Kubernetes version "${version}" (expected e.g. v1.34.0).`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** The kubeadm API version kind uses for a Kubernetes version: v1beta4 from 1.36, else v1beta3. */
export function kubeadmApiVersion(
  kubernetesVersion: string,
): "kubeadm.k8s.io/v1beta3" | "kubeadm.k8s.io/v1beta4" {
  const { major, minor } = parseKubernetesVersion(kubernetesVersion);
  if (major === 1 && minor < 23)
    throw new Error(`Kubernetes ${kubernetesVersion} is too old for this backend (1.23+).`);
  return major > 1 || minor >= 36 ? "kubeadm.k8s.io/v1beta4" : "kubeadm.k8s.io/v1beta3";
}

/** `extraArgs` in the shape the API version wants: a map (v1beta3) or a `{name, value}` list (v1beta4). */
function extraArgs(apiVersion: string, args: Record<string, string>): unknown {
  if (apiVersion.endsWith("v1beta3")) return args;
  return Object.entries(args).map(([name, value]) => ({ name, value }));
}

/** The four documents (Cluster, Init, Kubelet, KubeProxy configuration) as objects. */
export function kubeadmConfigDocuments(p: KubeadmConfigParams): Record<string, unknown>[] {
  const apiVersion = kubeadmApiVersion(p.kubernetesVersion);
  const clusterName = p.clusterName ?? "kind";
  const endpoint = `${p.nodeIp}:6443`;
  const sans = [...new Set(["localhost", "127.0.0.1", p.nodeIp, p.nodeName, ...(p.certSans ?? [])])];
  return [
    {
      apiVersion,
      kind: "ClusterConfiguration",
      clusterName,
      kubernetesVersion: p.kubernetesVersion.trim(),
      controlPlaneEndpoint: endpoint,
      apiServer: { certSANs: sans },
      controllerManager: { extraArgs: extraArgs(apiVersion, { "enable-hostpath-provisioner": "true" }) },
      networking: {
        podSubnet: p.podSubnet ?? KIND_POD_SUBNET,
        serviceSubnet: p.serviceSubnet ?? KIND_SERVICE_SUBNET,
      },
    },
    {
      apiVersion,
      kind: "InitConfiguration",
      bootstrapTokens: [{ token: "abcdef.0123456789abcdef" }],
      localAPIEndpoint: { advertiseAddress: p.nodeIp, bindPort: 6443 },
      nodeRegistration: {
        name: p.nodeName,
        criSocket: "unix:///run/containerd/containerd.sock",
        kubeletExtraArgs: extraArgs(apiVersion, {
          "node-ip": p.nodeIp,
          "provider-id": `kind://docker/${clusterName}/${p.nodeName}`,
        }),
      },
      skipPhases: ["preflight", ...(p.skipPhases ?? [])],
    },
    {
      apiVersion: "kubelet.config.k8s.io/v1beta1",
      kind: "KubeletConfiguration",
      cgroupDriver: "systemd",
      cgroupRoot: "/kubelet",
      failSwapOn: false,
      imageGCHighThresholdPercent: 100,
      evictionHard: { "nodefs.available": "0%", "nodefs.inodesFree": "0%", "imagefs.available": "0%" },
    },
    {
      apiVersion: "kubeproxy.config.k8s.io/v1alpha1",
      kind: "KubeProxyConfiguration",
      mode: "iptables",
      iptables: { minSyncPeriod: "1s" },
      conntrack: { maxPerCore: 0 },
    },
  ];
}

/** The configuration file text: the documents as JSON, separated by `---`. */
export function renderKubeadmConfig(p: KubeadmConfigParams): string {
  return `${kubeadmConfigDocuments(p)
    .map((doc) => JSON.stringify(doc, null, 2))
    .join("\n---\n")}\n`;
}
