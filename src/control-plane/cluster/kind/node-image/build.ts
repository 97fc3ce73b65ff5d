/**
 * `workbook kind build-image`: a kind node image made on this machine with nothing pulled from an image
 * registry, for engines that cannot reach one (kind's own `kind build node-image` starts from a base image it
 * pulls). Steps, each timed:
 *
 * 1. recipe check: an image with this recipe's hash already there → done (a second call is a no-op);
 * 2. Kubernetes binaries from the Go modules at the envtest version, sharing envtest's build ({@link buildKubernetesBinaries});
 * 3. the Debian root filesystem as a base image ({@link ensureBaseImage}, cached by package list);
 * 4. the control-plane, etcd and pause images, saved for preloading ({@link buildComponentImages});
 * 5. `docker build` of the node: base + binaries + configuration + preload archive, labelled with the recipe.
 */
import { chmod, copyFile, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DEFAULT_ENVTEST_VERSION, normalizeVersion } from "../../envtest/version.js";
import { buildComponentImages } from "./component-images.js";
import { docker, imageLabels } from "./docker-cli.js";
import { buildKubernetesBinaries, type KubernetesCommand, kindCacheRoot } from "./go-binaries.js";
import { MASKED_UNITS } from "./node-files.js";
import { nodeFiles, recipeHash } from "./recipe.js";
import { ensureBaseImage } from "./rootfs.js";
import { localNodeImage, RECIPE_LABEL } from "./tag.js";

/** Options of {@link buildNodeImage}. */
export interface BuildNodeImageOptions {
  /** Kubernetes version (default: the envtest version). */
  version?: string;
  /** Rebuild even when an image with this recipe exists. */
  force?: boolean;
  /** `go build -p` (default 2). */
  parallelism?: number;
  cacheRoot?: string;
  log?: (line: string) => void;
}

/** What the build made and what it cost. */
export interface BuildNodeImageResult {
  image: string;
  recipe: string;
  /** True when the image was already there and nothing ran. */
  cached: boolean;
  /** Wall time per step, in milliseconds. */
  timings: Record<string, number>;
}

/** The node's own binaries (in /usr/local/bin); the control-plane ones travel in their images. */
const NODE_BINARIES: KubernetesCommand[] = ["kubelet", "kubeadm", "kubectl"];

/** Builds the node image (or finds it); see the module comment. */
export async function buildNodeImage(options: BuildNodeImageOptions = {}): Promise<BuildNodeImageResult> {
  const version = normalizeVersion(options.version ?? DEFAULT_ENVTEST_VERSION);
  const log = options.log ?? (() => {});
  const image = localNodeImage(version);
  const recipe = recipeHash(version);
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, fn: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    log(`kind build-image: ${step}...`);
    const result = await fn();
    timings[step] = Date.now() - started;
    log(`kind build-image: ${step} done in ${(timings[step] / 1000).toFixed(1)} s`);
    return result;
  };

  const labels = await timed("recipe check", () => imageLabels(image));
  if (!options.force && labels?.[RECIPE_LABEL] === recipe) {
    log(`kind build-image: ${image} is up to date (recipe ${recipe}); nothing to do`);
    return { image, recipe, cached: true, timings };
  }

  const previous =
    labels === undefined
      ? undefined
      : (await docker(["image", "inspect", "--format", "{{.Id}}", image])).trim() || undefined;
  const root = join(options.cacheRoot ?? kindCacheRoot(), version);
  const binaries = await buildKubernetesBinaries({
    version,
    cacheRoot: options.cacheRoot,
    parallelism: options.parallelism,
    log,
    timed,
  });
  const base = await timed("Debian root filesystem (mmdebstrap, docker import)", () =>
    ensureBaseImage({ workDir: join(root, "rootfs"), log }),
  );
  if (base.cached) log(`kind build-image: reusing ${base.image}`);

  const context = join(root, "context");
  await rm(context, { recursive: true, force: true });
  const rootfs = join(context, "rootfs");
  await timed("control-plane, etcd and pause images", () =>
    buildComponentImages({
      version,
      binaries,
      workDir: join(root, "images"),
      archive: join(rootfs, "kind", "images", "preloaded.tar"),
      log,
    }),
  );
  await timed("node image (docker build)", async () => {
    for (const [path, content] of Object.entries(nodeFiles(version))) {
      const target = join(rootfs, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
      if (path.startsWith("usr/local/bin/")) await chmod(target, 0o755);
    }
    const wants = join(rootfs, "etc/systemd/system/multi-user.target.wants");
    await mkdir(wants, { recursive: true });
    for (const unit of ["kubelet.service", "workbook-images.service"])
      await symlink(`/etc/systemd/system/${unit}`, join(wants, unit));
    for (const unit of MASKED_UNITS) await symlink("/dev/null", join(rootfs, "etc/systemd/system", unit));
    await mkdir(join(rootfs, "usr/local/bin"), { recursive: true });
    for (const name of NODE_BINARIES) {
      const target = join(rootfs, "usr/local/bin", name);
      await copyFile(binaries[name], target);
      await chmod(target, 0o755);
    }
    await writeFile(
      join(context, "Dockerfile"),
      [
        `FROM ${base.image}`,
        "COPY rootfs/ /",
        "ENV container=docker",
        "STOPSIGNAL SIGRTMIN+3",
        `LABEL ${RECIPE_LABEL}=${recipe}`,
        'ENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]',
        "",
      ].join("\n"),
    );
    await docker(["build", "--quiet", "--tag", image, context], log);
  });
  // The image this one replaced (an older recipe) is now untagged: remove it rather than leave 800 MB behind.
  if (previous) await docker(["rmi", previous]).catch(() => undefined);
  await rm(context, { recursive: true, force: true });
  return { image, recipe, cached: false, timings };
}
