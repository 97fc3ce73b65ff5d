/**
 * `workbook conformance [--backends embedded,envtest,kind,kubeconfig] [--dir test/conformance] [--out FILE]`:
 * runs the API scenario suite once per backend (vitest with `WORKBOOK_CLUSTER` set and the JSON reporter),
 * then prints and writes a side-by-side table and every scenario where a real backend disagrees with the
 * embedded server. By default it runs every backend available here: embedded always, envtest when binaries are
 * found, kind when a container runtime answers and a node image can be had; kubeconfig only when asked for (it is your cluster).
 * Exits 1 when a scenario failed anywhere.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CLUSTER_BACKENDS, resolveBackend } from "../../control-plane/cluster/cluster.js";
import { type BackendRun, parseVitestJson, renderConformanceReport } from "./conformance/report.js";

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Why a backend cannot run here, or undefined when it can. */
async function unavailableReason(backend: string): Promise<string | undefined> {
  if (backend === "envtest") {
    const { findEnvtestAssets } = await import("../../control-plane/cluster/envtest/assets.js");
    return findEnvtestAssets()
      ? undefined
      : "no kube-apiserver/etcd binaries (KUBEBUILDER_ASSETS or `workbook envtest build`)";
  }
  if (backend === "kind") {
    const { kindUnavailableReason } = await import("../../control-plane/cluster/kind/availability.js");
    return kindUnavailableReason();
  }
  return undefined;
}

/** Runs vitest on `dir` with WORKBOOK_CLUSTER=backend; resolves the parsed report or the reason it failed. */
async function runSuite(root: string, dir: string, backend: string): Promise<BackendRun> {
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const work = await mkdtemp(join(tmpdir(), "workbook-conformance-"));
  const output = join(work, "report.json");
  try {
    const args = [vitest, "run", dir, "--reporter=json", `--outputFile=${output}`];
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...process.env, WORKBOOK_CLUSTER: backend },
        stdio: ["ignore", "ignore", "inherit"],
      });
      child.once("error", () => done(null));
      child.once("exit", (c) => done(c));
    });
    if (!existsSync(output)) {
      return { backend, results: new Map(), error: `vitest exited with ${code} and wrote no report` };
    }
    return { backend, results: parseVitestJson(JSON.parse(await readFile(output, "utf8")), root) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Entry point of `workbook conformance`. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      backends: { type: "string" },
      dir: { type: "string", default: "test/conformance" },
      out: { type: "string", default: "bench-results/conformance.md" },
    },
  });
  const root = process.cwd();
  if (!existsSync(join(root, "node_modules", "vitest", "vitest.mjs"))) {
    process.stderr.write(
      "workbook conformance: run it from the repository root (vitest not found in node_modules)\n",
    );
    return 2;
  }
  if (!existsSync(resolve(root, values.dir))) {
    process.stderr.write(`workbook conformance: no scenario suite at ${values.dir}\n`);
    return 2;
  }
  const explicit = values.backends !== undefined;
  let requested: string[];
  try {
    requested = explicit
      ? (values.backends ?? "").split(",").map((b) => resolveBackend(b.trim()))
      : CLUSTER_BACKENDS.filter((b) => b !== "kubeconfig");
  } catch (err) {
    process.stderr.write(`workbook conformance: ${(err as Error).message}\n`);
    return 2;
  }

  const runs: BackendRun[] = [];
  for (const backend of requested) {
    const reason = await unavailableReason(backend);
    if (reason) {
      say(`conformance: skipping ${backend}: ${reason}`);
      if (explicit) runs.push({ backend, results: new Map(), error: reason });
      continue;
    }
    say(`conformance: running ${values.dir} on ${backend}...`);
    const result = await runSuite(root, values.dir, backend);
    const failed = [...result.results.values()].filter((r) => r.outcome === "failed").length;
    say(
      `conformance: ${backend}: ${result.results.size} scenarios, ${failed} failed${result.error ? `; ${result.error}` : ""}`,
    );
    runs.push(result);
  }

  const report = renderConformanceReport(runs);
  const out = resolve(root, values.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, report);
  process.stdout.write(`\n${report}\nwritten to ${values.out}\n`);
  const anyFailure = runs.some((r) => r.error || [...r.results.values()].some((x) => x.outcome === "failed"));
  return anyFailure ? 1 : 0;
}
