/**
 * Which Kubernetes release the envtest backend builds and where its binaries live. The cache folder sits
 * outside the repository (`~/.cache/kube-controller-workbook/envtest/<version>/`) so that a build made once on a
 * machine serves every checkout and every CI run there.
 */
import { join } from "node:path";
import { workbookCacheDir } from "../cache-dir.js";

/** The pinned Kubernetes release `workbook envtest build` compiles (k8s.io/kubernetes v1.34.4). */
export const DEFAULT_ENVTEST_VERSION = "1.34.4";

/**
 * Root of the envtest cache: `$WORKBOOK_ENVTEST_CACHE`, else `$XDG_CACHE_HOME/kube-controller-workbook/envtest`,
 * else `~/.cache/kube-controller-workbook/envtest`.
 */
export function envtestCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WORKBOOK_ENVTEST_CACHE) return env.WORKBOOK_ENVTEST_CACHE;
  return workbookCacheDir("envtest", env);
}

/** The folder for one version: `src/` holds the generated Go module, `bin/` is a valid KUBEBUILDER_ASSETS. */
export function envtestVersionDir(version: string, root: string = envtestCacheRoot()): string {
  return join(root, normalizeVersion(version));
}

/**
 * Accepts `1.34.4` or `v1.34.4` and returns `1.34.4`. Anything else is rejected with a clear error, because the
 * version ends up in module paths and folder names.
 */
export function normalizeVersion(version: string): string {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  if (!match)
    throw new Error(`Invalid Kubernetes version "${version}": expected MAJOR.MINOR.PATCH, e.g. 1.34.4.`);
  return `${match[1]}.${match[2]}.${match[3]}`;
}

/**
 * The published version of the staging modules (k8s.io/api, k8s.io/client-go, ...) that match a Kubernetes
 * release: Kubernetes v1.X.Y ships them as v0.X.Y.
 */
export function stagingVersion(version: string): string {
  const [, minor, patch] = normalizeVersion(version).split(".");
  return `v0.${minor}.${patch}`;
}
