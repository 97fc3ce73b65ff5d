import { describe, expect, it } from "vitest";
import {
  kubeadmApiVersion,
  kubeadmConfigDocuments,
  parseKubernetesVersion,
  renderKubeadmConfig,
} from "../../../src/control-plane/cluster/kind/kubeadm-config.js";

const params = { kubernetesVersion: "v1.34.0\n", nodeIp: "172.18.0.2", nodeName: "workbook-control-plane" };

function docs(text: string): Record<string, any>[] {
  return text.split("\n---\n").map((d) => JSON.parse(d));
}

describe("kubeadm configuration for the kind node", () => {
  it("renders four parseable documents in kubeadm's order", () => {
    const parsed = docs(renderKubeadmConfig(params));
    expect(parsed.map((d) => d.kind)).toEqual([
      "ClusterConfiguration",
      "InitConfiguration",
      "KubeletConfiguration",
      "KubeProxyConfiguration",
    ]);
  });

  it("uses v1beta3 with map extraArgs up to 1.35 and v1beta4 with name/value lists from 1.36", () => {
    expect(kubeadmApiVersion("v1.34.0")).toBe("kubeadm.k8s.io/v1beta3");
    expect(kubeadmApiVersion("v1.35.2")).toBe("kubeadm.k8s.io/v1beta3");
    expect(kubeadmApiVersion("v1.36.1")).toBe("kubeadm.k8s.io/v1beta4");
    const [, init3] = kubeadmConfigDocuments(params);
    expect(init3?.nodeRegistration).toMatchObject({ kubeletExtraArgs: { "node-ip": "172.18.0.2" } });
    const [cluster4, init4] = kubeadmConfigDocuments({ ...params, kubernetesVersion: "v1.36.1" });
    expect(cluster4?.apiVersion).toBe("kubeadm.k8s.io/v1beta4");
    expect((init4!.nodeRegistration as any).kubeletExtraArgs).toContainEqual({
      name: "node-ip",
      value: "172.18.0.2",
    });
    expect((cluster4!.controllerManager as any).extraArgs).toEqual([
      { name: "enable-hostpath-provisioner", value: "true" },
    ]);
  });

  it("carries kind's node settings: endpoint, SANs, subnets, CRI socket, kubelet and preflight", () => {
    const [cluster, init, kubelet] = kubeadmConfigDocuments({ ...params, certSans: ["docker.internal"] });
    expect(cluster).toMatchObject({
      kubernetesVersion: "v1.34.0",
      clusterName: "kind",
      controlPlaneEndpoint: "172.18.0.2:6443",
      networking: { podSubnet: "10.244.0.0/16", serviceSubnet: "10.96.0.0/16" },
    });
    expect((cluster!.apiServer as any).certSANs).toEqual(
      expect.arrayContaining(["localhost", "127.0.0.1", "172.18.0.2", "docker.internal"]),
    );
    expect(init).toMatchObject({
      localAPIEndpoint: { advertiseAddress: "172.18.0.2", bindPort: 6443 },
      nodeRegistration: {
        name: "workbook-control-plane",
        criSocket: "unix:///run/containerd/containerd.sock",
        kubeletExtraArgs: { "provider-id": "kind://docker/kind/workbook-control-plane" },
      },
      skipPhases: ["preflight"],
    });
    expect(kubelet).toMatchObject({ cgroupDriver: "systemd", cgroupRoot: "/kubelet", failSwapOn: false });
  });

  it("rejects versions it cannot parse or support", () => {
    expect(() => parseKubernetesVersion("latest")).toThrow(/Cannot parse Kubernetes version/);
    expect(() => kubeadmApiVersion("v1.22.0")).toThrow(/too old/);
    expect(parseKubernetesVersion("1.34.0-rc.1")).toEqual({ major: 1, minor: 34 });
  });
});
