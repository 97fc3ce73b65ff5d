/**
 * The raw coordinates of a cluster (URL, bearer token, CA) from its client-node KubeConfig, for the load
 * workers that speak HTTPS directly. Returns a reason instead when the kubeconfig authenticates some other way
 * (client certificates, exec plugins), which those workers do not support.
 */
import { readFileSync } from "node:fs";
import type { KubeConfig } from "@kubernetes/client-node";
import type { ServerAddress } from "./raw-client.js";

/** The address, or why there is none. */
export function serverAddressOf(kc: KubeConfig): ServerAddress | string {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster) return "the kubeconfig has no current cluster";
  const token = user?.token;
  if (!token) return "the kubeconfig's user has no bearer token (client certificates are not supported here)";
  const caPem = cluster.caData
    ? Buffer.from(cluster.caData, "base64").toString("utf8")
    : cluster.caFile
      ? readFileSync(cluster.caFile, "utf8")
      : "";
  if (!caPem) return "the kubeconfig's cluster has no CA";
  return { url: cluster.server, token, caPem };
}
