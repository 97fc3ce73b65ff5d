/**
 * The recipe of the locally built node image: the Debian packages of its root filesystem, the images kubeadm
 * needs (named as kubeadm names them, so the kubelet reports them under those names in `node.status.images`)
 * and a hash over everything that shapes the image. The hash is stored as a label on the image: a second
 * `workbook kind build-image` with the same recipe finds it and does nothing.
 */
import { createHash } from "node:crypto";
import { normalizeVersion } from "../../envtest/version.js";
import {
  MASKED_UNITS,
  NODE_POD_CIDR,
  renderCniConfig,
  renderCniManifest,
  renderContainerdConfig,
  renderEntrypoint,
  renderImagesUnit,
  renderKubeletCgroupRoot,
  renderKubeletUnit,
  renderPauseMain,
  renderStorageManifest,
  SKIPPED_KUBEADM_PHASES,
} from "./node-files.js";

/** Bump when the build steps change in a way the file texts below do not show. */
export const RECIPE_REVISION = 1;

/** The Debian suite the root filesystem comes from (the archive apt on this machine already uses). */
export const DEBIAN_SUITE = "bookworm";

/** Packages on top of mmdebstrap's minbase: init, container runtime, CNI plugins, networking and node tools. */
export const NODE_PACKAGES = [
  "systemd",
  "systemd-sysv",
  "dbus",
  "containerd",
  "runc",
  "containernetworking-plugins",
  "iptables",
  "conntrack",
  "ebtables",
  "ethtool",
  "socat",
  "iproute2",
  "kmod",
  "util-linux",
  "mount",
  "procps",
  "ca-certificates",
  "libseccomp2",
] as const;

/** The images kubeadm pulls for a version, built here from the same binaries (coredns is not built). */
export function kubeadmImages(version: string): {
  controlPlane: Record<"kube-apiserver" | "kube-controller-manager" | "kube-scheduler", string>;
  etcd: string;
  pause: string;
} {
  const v = `v${version.replace(/^v/, "")}`;
  return {
    controlPlane: {
      "kube-apiserver": `registry.k8s.io/kube-apiserver:${v}`,
      "kube-controller-manager": `registry.k8s.io/kube-controller-manager:${v}`,
      "kube-scheduler": `registry.k8s.io/kube-scheduler:${v}`,
    },
    // kubeadm v1.34's pins (`kubeadm config images list`): etcd 3.6.5-0 and pause 3.10.1.
    etcd: "registry.k8s.io/etcd:3.6.5-0",
    pause: "registry.k8s.io/pause:3.10.1",
  };
}

/** Every file added to the root filesystem (path → content), except binaries and image archives. */
export function nodeFiles(version: string): Record<string, string> {
  const images = kubeadmImages(version);
  return {
    "usr/local/bin/entrypoint": renderEntrypoint(),
    "usr/local/bin/kubelet-cgroup-root": renderKubeletCgroupRoot(),
    "etc/containerd/config.toml": renderContainerdConfig(images.pause),
    "etc/cni/net.d/10-workbook.conflist": renderCniConfig(NODE_POD_CIDR),
    "etc/systemd/system/kubelet.service": renderKubeletUnit(),
    "etc/systemd/system/workbook-images.service": renderImagesUnit(),
    "kind/version": `v${version.replace(/^v/, "")}\n`,
    "kind/kubeadm-skip-phases": `${SKIPPED_KUBEADM_PHASES.join("\n")}\n`,
    "kind/manifests/default-cni.yaml": renderCniManifest(),
    "kind/manifests/default-storage.yaml": renderStorageManifest(),
  };
}

/** The hash stored on the image: version, suite, packages, images, file texts, pause source, revision. */
export function recipeHash(version: string): string {
  version = normalizeVersion(version);
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ RECIPE_REVISION, version, DEBIAN_SUITE, NODE_PACKAGES, MASKED_UNITS }));
  hash.update(JSON.stringify(kubeadmImages(version)));
  for (const [path, content] of Object.entries(nodeFiles(version)).sort())
    hash.update(`${path}\0${content}\0`);
  hash.update(renderPauseMain());
  return hash.digest("hex").slice(0, 16);
}

/** The hash of the root filesystem alone (packages and suite), naming its cached tarball and base image. */
export function rootfsHash(): string {
  return createHash("sha256")
    .update(JSON.stringify({ DEBIAN_SUITE, NODE_PACKAGES }))
    .digest("hex")
    .slice(0, 16);
}
