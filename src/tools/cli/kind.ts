/**
 * `workbook kind <build-image|load>`: the kind backend's tools for a machine without an image registry.
 *
 * - `build-image [--version 1.34.4] [--parallelism 2] [--force]`: build the node image here (see
 *   src/control-plane/cluster/kind/node-image/build.ts), print each step's time; a second call is a no-op.
 * - `load <image> [--node <container>]`: copy a locally built image into a running kind node's containerd,
 *   what `kind load docker-image` does (default node: the only running kind node).
 */
import { parseArgs } from "node:util";

const USAGE = `usage: workbook kind build-image [--version 1.34.4] [--parallelism 2] [--force]
       workbook kind load <image> [--node <container>]
`;

const say = (line: string) => process.stdout.write(`${line}\n`);

async function buildImage(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { version: { type: "string" }, parallelism: { type: "string" }, force: { type: "boolean" } },
  });
  const parallelism = values.parallelism === undefined ? undefined : Number(values.parallelism);
  if (parallelism !== undefined && !(Number.isInteger(parallelism) && parallelism > 0)) {
    process.stderr.write(
      `workbook kind build-image: --parallelism must be a positive integer, got "${values.parallelism}"\n`,
    );
    return 2;
  }
  const { buildNodeImage } = await import("../../control-plane/cluster/kind/node-image/build.js");
  const started = Date.now();
  const result = await buildNodeImage({
    version: values.version,
    parallelism,
    force: values.force,
    log: say,
  });
  say(result.cached ? `${result.image} already built (recipe ${result.recipe})` : `built ${result.image}`);
  for (const [step, ms] of Object.entries(result.timings)) say(`  ${step}: ${(ms / 1000).toFixed(1)} s`);
  say(`  total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  say(
    `the kind backend uses it when kindest/node cannot be pulled (or: export WORKBOOK_KIND_IMAGE=${result.image})`,
  );
  return 0;
}

async function load(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { node: { type: "string" } },
  });
  if (positionals.length !== 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const { loadImageIntoNode } = await import("../../control-plane/cluster/kind/load-image.js");
  const result = await loadImageIntoNode(positionals[0] as string, { node: values.node, log: say });
  say(`loaded ${result.image} into ${result.node} in ${(result.ms / 1000).toFixed(1)} s`);
  return 0;
}

/** Entry point of `workbook kind`. */
export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === "build-image") return await buildImage(rest);
    if (sub === "load") return await load(rest);
  } catch (err) {
    process.stderr.write(`workbook kind ${sub}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stderr.write(USAGE);
  return sub === "help" ? 0 : 2;
}
