import { describe, expect, it } from "vitest";
import { renderCniManifest } from "../../../src/control-plane/cluster/kind/cni.js";
import { DEFAULT_KIND_NODE_IMAGE, resolveKindImage } from "../../../src/control-plane/cluster/kind/image.js";
import { rewriteKindKubeconfig } from "../../../src/control-plane/cluster/kind/kubeconfig-rewrite.js";

// The shape kubeadm writes to /etc/kubernetes/admin.conf (credentials shortened).
const adminConf = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: Q0EtREFUQQ==
    server: https://172.18.0.2:6443
  name: kind
contexts:
- context:
    cluster: kind
    user: kubernetes-admin
  name: kubernetes-admin@kind
current-context: kubernetes-admin@kind
kind: Config
preferences: {}
users:
- name: kubernetes-admin
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
`;

describe("kind kubeconfig rewriting", () => {
  it("points the server at the host-mapped port and names everything kind-<cluster>", () => {
    const kc = rewriteKindKubeconfig(adminConf, "https://127.0.0.1:40123", "workbook");
    expect(kc.getCurrentContext()).toBe("kind-workbook");
    expect(kc.getCurrentCluster()).toMatchObject({
      name: "kind-workbook",
      server: "https://127.0.0.1:40123",
      caData: "Q0EtREFUQQ==",
    });
    expect(kc.getCurrentUser()).toMatchObject({
      name: "kind-workbook",
      certData: "Q0VSVA==",
      keyData: "S0VZ",
    });
    const exported = JSON.parse(kc.exportConfig());
    expect(exported.clusters[0].cluster.server).toBe("https://127.0.0.1:40123");
  });

  it("rejects a broken admin.conf or a non-https server with a clear error", () => {
    expect(() => rewriteKindKubeconfig("{not yaml: [", "https://127.0.0.1:1")).toThrow(
      /not a valid kubeconfig/,
    );
    expect(() => rewriteKindKubeconfig(adminConf, "http://127.0.0.1:1")).toThrow(/must be https/);
  });
});

describe("kind node image and CNI manifest", () => {
  it("pins the default image by digest and accepts an override", () => {
    expect(DEFAULT_KIND_NODE_IMAGE).toMatch(/^kindest\/node:v1\.3\d\.\d+@sha256:[0-9a-f]{64}$/);
    expect(resolveKindImage(undefined, {})).toBe(DEFAULT_KIND_NODE_IMAGE);
    expect(resolveKindImage(undefined, { WORKBOOK_KIND_IMAGE: "kindest/node:v1.33.1" })).toBe(
      "kindest/node:v1.33.1",
    );
    expect(resolveKindImage("my/node:1", { WORKBOOK_KIND_IMAGE: "other" })).toBe("my/node:1");
    expect(() => resolveKindImage("bad image name")).toThrow(/Invalid kind node image/);
  });

  it("templates every PodSubnet placeholder and nothing else", () => {
    const manifest =
      "# would you kindly template this file\nvalue: {{ .PodSubnet }}\nother: {{.PodSubnet}}\nkeep: {{ .Other }}\n";
    expect(renderCniManifest(manifest, "10.244.0.0/16")).toBe(
      "# would you kindly template this file\nvalue: 10.244.0.0/16\nother: 10.244.0.0/16\nkeep: {{ .Other }}\n",
    );
  });
});
