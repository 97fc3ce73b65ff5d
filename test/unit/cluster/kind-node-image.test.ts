import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAllYaml } from "@kubernetes/client-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderCniManifest as templateCni } from "../../../src/control-plane/cluster/kind/cni.js";
import { kubeadmConfigDocuments } from "../../../src/control-plane/cluster/kind/kubeadm-config.js";
import { componentImages } from "../../../src/control-plane/cluster/kind/node-image/component-images.js";
import {
  kindCacheRoot,
  renderNodeMain,
} from "../../../src/control-plane/cluster/kind/node-image/go-binaries.js";
import {
  renderCniConfig,
  renderEntrypoint,
  renderKubeletCgroupRoot,
} from "../../../src/control-plane/cluster/kind/node-image/node-files.js";
import {
  kubeadmImages,
  nodeFiles,
  recipeHash,
  rootfsHash,
} from "../../../src/control-plane/cluster/kind/node-image/recipe.js";
import { baseImageName, mmdebstrapArgs } from "../../../src/control-plane/cluster/kind/node-image/rootfs.js";
import { localNodeImage } from "../../../src/control-plane/cluster/kind/node-image/tag.js";
import { run as kindCli } from "../../../src/tools/cli/kind.js";

afterEach(() => vi.restoreAllMocks());

describe("the locally built node image's recipe", () => {
  it("is named after the Kubernetes version and hashed over what shapes it", () => {
    expect(localNodeImage("1.34.4")).toBe("kube-controller-workbook/node:v1.34.4");
    expect(recipeHash("1.34.4")).toMatch(/^[0-9a-f]{16}$/);
    expect(recipeHash("1.34.4")).toBe(recipeHash("v1.34.4"));
    expect(recipeHash("1.34.4")).not.toBe(recipeHash("1.34.5"));
    expect(baseImageName()).toBe(`kube-controller-workbook/node-base:${rootfsHash()}`);
  });

  it("puts kind's files where the kind bootstrap reads them, with kubeadm's image names", () => {
    const files = nodeFiles("1.34.4");
    expect(files["kind/version"]).toBe("v1.34.4\n");
    expect(files["kind/kubeadm-skip-phases"]?.trim().split("\n")).toEqual([
      "addon/coredns",
      "addon/kube-proxy",
    ]);
    expect(files["etc/containerd/config.toml"]).toContain('sandbox_image = "registry.k8s.io/pause:3.10.1"');
    expect(files["etc/containerd/config.toml"]).toContain("SystemdCgroup = true");
    expect(files["etc/containerd/config.toml"]).toContain("restrict_oom_score_adj = true");
    expect(files["etc/systemd/system/kubelet.service"]).toContain("ExecStart=/usr/local/bin/kubelet");
    const images = kubeadmImages("1.34.4");
    expect(Object.values(images.controlPlane)).toEqual([
      "registry.k8s.io/kube-apiserver:v1.34.4",
      "registry.k8s.io/kube-controller-manager:v1.34.4",
      "registry.k8s.io/kube-scheduler:v1.34.4",
    ]);
    expect(componentImages("1.34.4").map((i) => `${i.name} ${i.path}`)).toEqual([
      "registry.k8s.io/kube-apiserver:v1.34.4 /usr/local/bin/kube-apiserver",
      "registry.k8s.io/kube-controller-manager:v1.34.4 /usr/local/bin/kube-controller-manager",
      "registry.k8s.io/kube-scheduler:v1.34.4 /usr/local/bin/kube-scheduler",
      "registry.k8s.io/etcd:3.6.5-0 /usr/local/bin/etcd",
      "registry.k8s.io/pause:3.10.1 /pause",
    ]);
  });

  it("ships CNI and storage manifests that kubectl can apply once the bootstrap templated them", () => {
    const files = nodeFiles("1.34.4");
    const cni = loadAllYaml(
      templateCni(files["kind/manifests/default-cni.yaml"] ?? "", "10.244.0.0/16"),
    ) as Array<{
      kind: string;
      data: Record<string, string>;
    }>;
    expect(cni[0]?.kind).toBe("ConfigMap");
    expect(cni[0]?.data.podSubnet).toBe("10.244.0.0/16");
    expect(JSON.parse(cni[0]?.data["10-workbook.conflist"] ?? "")).toEqual(JSON.parse(renderCniConfig()));
    const storage = loadAllYaml(files["kind/manifests/default-storage.yaml"] ?? "") as Array<{
      provisioner: string;
    }>;
    expect(storage[0]?.provisioner).toBe("kubernetes.io/host-path");
  });

  it("has an entrypoint that is valid sh and execs its arguments", () => {
    const dir = mkdtempSync(join(tmpdir(), "entrypoint-"));
    try {
      const path = join(dir, "entrypoint");
      writeFileSync(path, renderEntrypoint());
      expect(spawnSync("sh", ["-n", path]).status).toBe(0);
      writeFileSync(path, renderKubeletCgroupRoot());
      expect(spawnSync("sh", ["-n", path]).status).toBe(0);
      expect(renderKubeletCgroupRoot()).toContain('mkdir -p "$dir/kubelet.slice"');
      expect(renderEntrypoint()).toMatch(/mount -t cgroup -o "nosuid,nodev,noexec,\$opts"/);
      expect(renderEntrypoint().trimEnd().endsWith('exec "$@"')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("asks mmdebstrap for a minbase Debian with the node packages", () => {
    const args = mmdebstrapArgs("/tmp/rootfs.tar");
    expect(args[0]).toBe("--variant=minbase");
    const include =
      args
        .find((a) => a.startsWith("--include="))
        ?.split("=")[1]
        ?.split(",") ?? [];
    expect(include).toEqual(
      expect.arrayContaining(["systemd", "containerd", "runc", "containernetworking-plugins", "iptables"]),
    );
    expect(args.slice(-2)).toEqual(["bookworm", "/tmp/rootfs.tar"]);
  });

  it("generates main packages that call the upstream entry points", () => {
    expect(renderNodeMain("kubelet")).toContain("app.NewKubeletCommand(context.Background())");
    expect(renderNodeMain("kubeadm")).toContain("errors.HandleError(app.Run())");
    expect(renderNodeMain("kube-proxy")).toContain('"k8s.io/kubernetes/cmd/kube-proxy/app"');
    expect(kindCacheRoot({ XDG_CACHE_HOME: "/c" })).toBe("/c/kube-controller-workbook/kind");
    expect(kindCacheRoot({ WORKBOOK_KIND_CACHE: "/k" })).toBe("/k");
  });

  it("lets the image skip kubeadm phases it has no images for", () => {
    const init = kubeadmConfigDocuments({
      kubernetesVersion: "v1.34.4",
      nodeIp: "172.17.0.2",
      nodeName: "n",
      skipPhases: ["addon/coredns"],
    })[1] as { skipPhases: string[] };
    expect(init.skipPhases).toEqual(["preflight", "addon/coredns"]);
  });
});

describe("workbook kind (argument handling)", () => {
  it("prints usage for no or unknown subcommand and rejects a bad --parallelism before building", async () => {
    const chunks: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((c: string | Uint8Array) => {
      chunks.push(String(c));
      return true;
    });
    expect(await kindCli([])).toBe(2);
    expect(await kindCli(["frobnicate"])).toBe(2);
    expect(await kindCli(["build-image", "--parallelism", "0"])).toBe(2);
    expect(await kindCli(["load"])).toBe(2);
    expect(chunks.join("")).toContain("usage: workbook kind build-image");
    expect(chunks.join("")).toContain("--parallelism must be a positive integer");
  });
});
