/**
 * The credentials one envtest control plane needs, written into its temporary folder: a CA and serving
 * certificate for kube-apiserver, a ServiceAccount signing key pair (`--service-account-signing-key-file` and
 * `--service-account-key-file`), a static bearer token for an admin user in `system:masters` (so RBAC lets it
 * do anything, as the cluster-admin of a kind cluster can), and the kubeconfig that carries token and CA.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { generateServingCertificates, randomToken } from "../../apiserver/tls.js";
import type { ControlPlaneLayout } from "./flags.js";

/** The admin identity written into the token file. */
export const ENVTEST_ADMIN_USER = "workbook-admin";

/** What the kubeconfig needs from {@link writeControlPlaneCredentials}. */
export interface ControlPlaneCredentials {
  caPem: string;
  token: string;
}

/** One `--token-auth-file` line: token, user name, uid, quoted comma-separated groups. */
export function tokenAuthLine(token: string, user: string, groups: string[]): string {
  return `${token},${user},${user},"${groups.join(",")}"\n`;
}

/** Generates and writes serving certificates, ServiceAccount keys and the token file (all mode 0600). */
export async function writeControlPlaneCredentials(
  layout: ControlPlaneLayout,
): Promise<ControlPlaneCredentials> {
  const certs = await generateServingCertificates({
    dnsNames: ["localhost", "kubernetes", "kubernetes.default"],
  });
  const serviceAccount = generateKeyPairSync("ec", {
    namedCurve: "P-256",
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const token = randomToken();
  const secret = { mode: 0o600 };
  await Promise.all([
    writeFile(layout.servingCertFile, certs.certPem, secret),
    writeFile(layout.servingKeyFile, certs.keyPem, secret),
    writeFile(layout.serviceAccountPublicKeyFile, serviceAccount.publicKey, secret),
    writeFile(layout.serviceAccountSigningKeyFile, serviceAccount.privateKey, secret),
    writeFile(layout.tokenAuthFile, tokenAuthLine(token, ENVTEST_ADMIN_USER, ["system:masters"]), secret),
  ]);
  return { caPem: certs.caPem, token };
}
