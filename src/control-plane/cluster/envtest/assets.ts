/**
 * Finding the control-plane binaries, the way controller-runtime's envtest does: a folder named by
 * `KUBEBUILDER_ASSETS` holding `kube-apiserver`, `etcd` and `kubectl`. The workbook adds two fallbacks: the
 * folder `workbook envtest build` fills (see {@link envtestVersionDir}), and a system etcd (`/usr/bin/etcd`,
 * Debian's etcd-server package) when the folder has none. `kube-controller-manager` is optional: when present it
 * runs the garbage collector and namespace controllers that plain envtest lacks.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { DEFAULT_ENVTEST_VERSION, envtestVersionDir } from "./version.js";

/** Absolute paths of the binaries one envtest control plane runs. */
export interface EnvtestAssets {
  /** The folder the binaries were found in. */
  dir: string;
  kubeApiserver: string;
  etcd: string;
  /** Present only when the folder has one; without it owned objects are never garbage-collected. */
  kubeControllerManager: string | undefined;
  /** Present when the folder or PATH has one (tools only; the backend never needs it). */
  kubectl: string | undefined;
}

/** Options of {@link findEnvtestAssets}. */
export interface FindAssetsOptions {
  /** An explicit folder: the only one searched. */
  dir?: string;
  /** Environment to read `KUBEBUILDER_ASSETS` and `PATH` from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Version whose cache folder is searched (default {@link DEFAULT_ENVTEST_VERSION}). */
  version?: string;
  /** Cache root override (default: the user cache folder). */
  cacheRoot?: string;
  /** Where to look for a system etcd when the folder has none (default `/usr/bin/etcd`, then PATH). */
  systemEtcd?: string[];
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function executableIn(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  return isExecutable(path) ? path : undefined;
}

/** The first executable called `name` in the folders of `PATH` (`which`). */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const found = executableIn(dir, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * The folders searched, in order: `KUBEBUILDER_ASSETS`, then the build cache. An explicit `dir` is the only
 * folder searched: asking for one folder and silently getting binaries from another would be a surprise.
 */
export function candidateAssetDirs(options: FindAssetsOptions = {}): string[] {
  const env = options.env ?? process.env;
  if (options.dir) return [options.dir];
  const dirs: string[] = [];
  if (env.KUBEBUILDER_ASSETS) dirs.push(env.KUBEBUILDER_ASSETS);
  dirs.push(join(envtestVersionDir(options.version ?? DEFAULT_ENVTEST_VERSION, options.cacheRoot), "bin"));
  return dirs;
}

/**
 * Returns the binaries of the first candidate folder that has a `kube-apiserver`, or `undefined` when none
 * does. etcd falls back to the system one. Never throws: use {@link requireEnvtestAssets} for a clear error.
 */
export function findEnvtestAssets(options: FindAssetsOptions = {}): EnvtestAssets | undefined {
  const env = options.env ?? process.env;
  for (const dir of candidateAssetDirs(options)) {
    const kubeApiserver = executableIn(dir, "kube-apiserver");
    if (!kubeApiserver) continue;
    const systemEtcd = (options.systemEtcd ?? ["/usr/bin/etcd"]).find(isExecutable);
    const etcd =
      executableIn(dir, "etcd") ?? systemEtcd ?? (options.systemEtcd ? undefined : findOnPath("etcd", env));
    if (!etcd) continue;
    return {
      dir,
      kubeApiserver,
      etcd,
      kubeControllerManager: executableIn(dir, "kube-controller-manager"),
      kubectl: executableIn(dir, "kubectl") ?? findOnPath("kubectl", env),
    };
  }
  return undefined;
}

/** Like {@link findEnvtestAssets} but throws an error that says where it looked and how to get the binaries. */
export function requireEnvtestAssets(options: FindAssetsOptions = {}): EnvtestAssets {
  const found = findEnvtestAssets(options);
  if (found) return found;
  const looked = candidateAssetDirs(options)
    .map((d) => `  - ${d}`)
    .join("\n");
  throw new Error(
    "The envtest backend needs kube-apiserver and etcd binaries, and none were found. Looked in:\n" +
      `${looked}\n` +
      "Set KUBEBUILDER_ASSETS to a folder holding kube-apiserver, etcd (or install /usr/bin/etcd) and kubectl, " +
      "or run `workbook envtest build` to compile them from the Kubernetes Go modules. " +
      "Alternatives: WORKBOOK_CLUSTER=embedded (no binaries), kind (needs Docker) or kubeconfig (an existing cluster).",
  );
}
