/**
 * The images kubeadm runs as static Pods (kube-apiserver, kube-controller-manager, kube-scheduler, etcd) and
 * the pod sandbox image (pause), built here from the static binaries: each is one layer holding its binary,
 * made with `docker import` from a tarball. They are saved into one archive the node imports into its
 * containerd at boot (the `workbook-images` unit), under the names kubeadm and containerd ask for, so nothing is
 * pulled. The engine's copies are removed once saved: they exist to be preloaded, not to be run by Docker.
 */
import { chmod, copyFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { docker } from "./docker-cli.js";
import type { KubernetesCommand } from "./go-binaries.js";
import { kubeadmImages } from "./recipe.js";
import { runCommand } from "./run-command.js";

/** One image: its name, the binary inside and where it goes. */
export interface ComponentImage {
  name: string;
  binary: KubernetesCommand;
  /** Path of the binary in the image, also the entrypoint. */
  path: string;
}

/** The component images for a version. */
export function componentImages(version: string): ComponentImage[] {
  const images = kubeadmImages(version);
  return [
    ...Object.entries(images.controlPlane).map(([binary, name]) => ({
      name,
      binary: binary as KubernetesCommand,
      path: `/usr/local/bin/${binary}`,
    })),
    { name: images.etcd, binary: "etcd", path: "/usr/local/bin/etcd" },
    { name: images.pause, binary: "pause", path: "/pause" },
  ];
}

/** Builds every component image and saves them all to `archive`; returns the names saved. */
export async function buildComponentImages(options: {
  version: string;
  binaries: Record<KubernetesCommand, string>;
  workDir: string;
  archive: string;
  log?: (line: string) => void;
}): Promise<string[]> {
  const images = componentImages(options.version);
  for (const image of images) {
    const dir = join(options.workDir, image.binary);
    await rm(dir, { recursive: true, force: true });
    const target = join(dir, image.path);
    await mkdir(join(target, ".."), { recursive: true });
    await copyFile(options.binaries[image.binary], target);
    await chmod(target, 0o755);
    const tar = `${dir}.tar`;
    await runCommand("tar", ["-C", dir, "--owner=0", "--group=0", "-cf", tar, "."]);
    await docker(
      [
        "import",
        "--change",
        "ENV PATH=/usr/local/bin:/usr/bin:/bin",
        "--change",
        `ENTRYPOINT ["${image.path}"]`,
        tar,
        image.name,
      ],
      options.log,
    );
    await rm(dir, { recursive: true, force: true });
    await rm(tar, { force: true });
  }
  const names = images.map((i) => i.name);
  await mkdir(join(options.archive, ".."), { recursive: true });
  await docker(["save", "-o", options.archive, ...names], options.log);
  await docker(["rmi", ...names], options.log);
  return names;
}
