/**
 * `workbook envtest <build|path|start>`: real control-plane binaries for the envtest backend.
 *
 * - `build [--version 1.34.4] [--parallelism 2] [--force]`: compile kube-apiserver and kube-controller-manager
 *   from the Kubernetes Go modules into the cache folder and link etcd/kubectl next to them.
 * - `path`: print the folder the envtest backend would use (a KUBEBUILDER_ASSETS), or fail saying why.
 * - `start`: run an envtest control plane in the foreground until Ctrl-C, printing its kubeconfig path.
 */
import { parseArgs } from "node:util";

const USAGE = `usage: workbook envtest build [--version 1.34.4] [--parallelism 2] [--force]
       workbook envtest path
       workbook envtest start
`;

const say = (line: string) => process.stdout.write(`${line}\n`);

async function build(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      version: { type: "string" },
      parallelism: { type: "string" },
      force: { type: "boolean" },
    },
  });
  const parallelism = values.parallelism === undefined ? undefined : Number(values.parallelism);
  if (parallelism !== undefined && !(Number.isInteger(parallelism) && parallelism > 0)) {
    process.stderr.write(
      `workbook envtest build: --parallelism must be a positive integer, got "${values.parallelism}"\n`,
    );
    return 2;
  }
  const { buildEnvtestBinaries } = await import("../../control-plane/cluster/envtest/go-build.js");
  const result = await buildEnvtestBinaries({
    version: values.version,
    parallelism,
    force: values.force,
    log: say,
  });
  say(result.cached ? `envtest binaries for v${result.version} already built` : `built v${result.version}`);
  for (const [step, ms] of Object.entries(result.timings)) say(`  ${step}: ${(ms / 1000).toFixed(1)} s`);
  for (const [name, bytes] of Object.entries(result.sizes))
    say(`  ${name}: ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  say(`export KUBEBUILDER_ASSETS=${result.binDir}`);
  return 0;
}

async function path(): Promise<number> {
  const { requireEnvtestAssets } = await import("../../control-plane/cluster/envtest/assets.js");
  const assets = requireEnvtestAssets();
  say(assets.dir);
  return 0;
}

async function start(): Promise<number> {
  const { startEnvtestCluster } = await import("../../control-plane/cluster/envtest.js");
  const cluster = await startEnvtestCluster({ log: say });
  say(`export KUBECONFIG=${cluster.kubeconfigPath}`);
  say("envtest is running; Ctrl-C stops it and removes its files");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await cluster.stop();
  return 0;
}

/** Entry point of `workbook envtest`. */
export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === "build") return await build(rest);
    if (sub === "path") return await path();
    if (sub === "start") return await start();
  } catch (err) {
    process.stderr.write(`workbook envtest ${sub}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stderr.write(USAGE);
  return sub === "help" ? 0 : 2;
}
