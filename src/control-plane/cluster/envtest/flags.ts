/**
 * Command lines of the three control-plane processes, as pure functions of a {@link ControlPlaneLayout} so
 * they can be read and tested without starting anything. The choices mirror controller-runtime's envtest
 * defaults (loopback only, RBAC, a ServiceAccount issuer, the ServiceAccount admission plugin off because no
 * controller creates the `default` ServiceAccount) with a bearer token for the admin user instead of a client
 * certificate.
 */

/** Where one control plane keeps its files and which loopback ports it listens on. */
export interface ControlPlaneLayout {
  etcdDataDir: string;
  etcdClientPort: number;
  etcdPeerPort: number;
  apiserverPort: number;
  /** Folder kube-apiserver may write extra generated certificates into. */
  certDir: string;
  servingCertFile: string;
  servingKeyFile: string;
  /** `token,user,uid,"group"` lines (kube-apiserver `--token-auth-file`). */
  tokenAuthFile: string;
  serviceAccountPublicKeyFile: string;
  serviceAccountSigningKeyFile: string;
  /** Kubeconfig kube-controller-manager uses (the admin token). */
  kubeconfigFile: string;
}

/** The Service ClusterIP range envtest uses. */
export const SERVICE_CLUSTER_IP_RANGE = "10.0.0.0/24";

/** Controllers kube-controller-manager runs here: only the two that make API semantics whole. */
export const ENVTEST_CONTROLLERS = ["garbagecollector", "namespace"] as const;

/** Turns `{flag: value}` into `--flag=value` arguments, in insertion order. */
export function toArgs(flags: Record<string, string>): string[] {
  return Object.entries(flags).map(([name, value]) => `--${name}=${value}`);
}

/** etcd: a single member on loopback ports with its data in a temporary folder. */
export function etcdFlags(layout: ControlPlaneLayout): Record<string, string> {
  const client = `http://127.0.0.1:${layout.etcdClientPort}`;
  const peer = `http://127.0.0.1:${layout.etcdPeerPort}`;
  return {
    name: "default",
    "data-dir": layout.etcdDataDir,
    "listen-client-urls": client,
    "advertise-client-urls": client,
    "listen-peer-urls": peer,
    "initial-advertise-peer-urls": peer,
    "initial-cluster": `default=${peer}`,
  };
}

/** The issuer URL kube-apiserver stamps into ServiceAccount tokens. */
export function serviceAccountIssuer(layout: ControlPlaneLayout): string {
  return `https://127.0.0.1:${layout.apiserverPort}`;
}

/**
 * kube-apiserver flags. `extra` entries override or add flags (envtest's `KubeAPIServerFlags`), e.g.
 * `{"authorization-mode": "AlwaysAllow"}` or `{"feature-gates": "..."}`.
 */
export function kubeApiserverFlags(
  layout: ControlPlaneLayout,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    "etcd-servers": `http://127.0.0.1:${layout.etcdClientPort}`,
    "bind-address": "127.0.0.1",
    "advertise-address": "127.0.0.1",
    "secure-port": String(layout.apiserverPort),
    "cert-dir": layout.certDir,
    "tls-cert-file": layout.servingCertFile,
    "tls-private-key-file": layout.servingKeyFile,
    "token-auth-file": layout.tokenAuthFile,
    "authorization-mode": "RBAC",
    "service-account-issuer": serviceAccountIssuer(layout),
    "service-account-key-file": layout.serviceAccountPublicKeyFile,
    "service-account-signing-key-file": layout.serviceAccountSigningKeyFile,
    "service-cluster-ip-range": SERVICE_CLUSTER_IP_RANGE,
    "disable-admission-plugins": "ServiceAccount",
    "allow-privileged": "true",
    ...extra,
  };
}

/**
 * kube-controller-manager flags: only the garbage collector and namespace controllers, with the admin
 * kubeconfig's own credentials, no leader election and no serving port (several control planes may run side by
 * side).
 */
export function kubeControllerManagerFlags(
  layout: ControlPlaneLayout,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    kubeconfig: layout.kubeconfigFile,
    controllers: ENVTEST_CONTROLLERS.join(","),
    "use-service-account-credentials": "false",
    "leader-elect": "false",
    "secure-port": "0",
    ...extra,
  };
}
