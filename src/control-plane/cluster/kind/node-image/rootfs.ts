/**
 * The node's Debian root filesystem: `mmdebstrap --variant=minbase` with the node packages, from the Debian
 * archive apt on this machine already uses (mmdebstrap reads the host's apt sources), written as a tarball and
 * turned into a base image with `docker import`. The base image is named after the package list, so it is
 * built once and reused until the list changes; the tarball is deleted once imported.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { docker, imageLabels } from "./docker-cli.js";
import { DEBIAN_SUITE, NODE_PACKAGES, rootfsHash } from "./recipe.js";
import { runCommand } from "./run-command.js";

/** The base image name for the current package list. */
export function baseImageName(): string {
  return `kube-controller-workbook/node-base:${rootfsHash()}`;
}

/** The mmdebstrap arguments (exported for the test that pins them). */
export function mmdebstrapArgs(tarball: string): string[] {
  return [
    "--variant=minbase",
    `--include=${NODE_PACKAGES.join(",")}`,
    // Docs and man pages are not needed on a node.
    "--dpkgopt=path-exclude=/usr/share/man/*",
    "--dpkgopt=path-exclude=/usr/share/doc/*",
    "--dpkgopt=path-include=/usr/share/doc/*/copyright",
    DEBIAN_SUITE,
    tarball,
  ];
}

/** Makes sure the base image exists; returns its name and whether it was already there. */
export async function ensureBaseImage(options: {
  workDir: string;
  log?: (line: string) => void;
}): Promise<{ image: string; cached: boolean }> {
  const image = baseImageName();
  if ((await imageLabels(image)) !== undefined) return { image, cached: true };
  await mkdir(options.workDir, { recursive: true });
  const tarball = join(options.workDir, "rootfs.tar");
  try {
    await runCommand("mmdebstrap", mmdebstrapArgs(tarball), { log: options.log }).catch((err: Error) => {
      if (/Could not run mmdebstrap/.test(err.message))
        throw new Error(`${err.message}. Install it: apt-get install mmdebstrap`);
      throw err;
    });
    await docker(["import", tarball, image], options.log);
  } finally {
    await rm(tarball, { force: true });
  }
  return { image, cached: false };
}
