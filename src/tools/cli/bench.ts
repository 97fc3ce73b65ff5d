/**
 * `workbook bench`: runs the benchmark families side by side with their peers (client-go, client-node, envtest,
 * kind, a bare HTTPS handler), each family in a fresh process, and writes `bench-results/latest.{json,md}` plus a
 * short console summary.
 * `--tiny` runs every family once at sizes that take seconds (what `npm test` does so the harness cannot rot);
 * its numbers mean nothing.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_ENVTEST_VERSION } from "../../control-plane/cluster/envtest/version.js";
import { runFamilyInFreshProcess } from "../bench/family-process.js";
import { loadFamilies } from "../bench/registry.js";
import { type FamilyReport, type RunInfo, renderMarkdown, renderSummary } from "../bench/report.js";

/** `workbook bench [filter] [--tiny] [--out DIR]`. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { tiny: { type: "boolean", default: false }, out: { type: "string", default: "bench-results" } },
  });
  const filter = positionals[0];
  const loaded = await loadFamilies();
  const chosen = loaded.filter((b) => !filter || b.name.includes(filter));
  if (chosen.length === 0) {
    const names = loaded.map((b) => b.name).join(", ");
    process.stderr.write(`workbook bench: no suite matches "${filter}"; suites: ${names}\n`);
    return 2;
  }
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const loadStart = loadavg();
  const reports: FamilyReport[] = [];
  let clientGoVersion: string | undefined;
  for (const benchmark of chosen) {
    say(`bench: ${benchmark.name}${values.tiny ? " (tiny)" : ""}...`);
    const started = performance.now();
    const outcome = await runFamilyInFreshProcess(loaded.indexOf(benchmark), values.tiny);
    clientGoVersion = outcome.clientGoVersion ?? clientGoVersion;
    if (outcome.result) {
      reports.push({ family: benchmark.name, title: benchmark.title, seconds: 0, ...outcome.result });
    } else {
      say(`bench: ${benchmark.name} failed: ${outcome.error}`);
      reports.push({
        family: benchmark.name,
        title: benchmark.title,
        seconds: 0,
        figures: [],
        charts: [],
        missing: [],
        error: outcome.error,
      });
    }
    (reports.at(-1) as FamilyReport).seconds = (performance.now() - started) / 1000;
  }
  const info: RunInfo = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    loadStart,
    loadEnd: loadavg(),
    tiny: values.tiny,
    versions: {
      "@kubernetes/client-node": "1.4.0",
      "envtest kube-apiserver": DEFAULT_ENVTEST_VERSION,
      ...(clientGoVersion ? { "client-go": clientGoVersion } : {}),
    },
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(
    join(values.out, "latest.json"),
    `${JSON.stringify({ ...info, families: reports }, null, 2)}\n`,
  );
  await writeFile(join(values.out, "latest.md"), renderMarkdown(info, reports));
  for (const line of renderSummary(reports)) say(line);
  say(`bench: wrote ${join(values.out, "latest.json")} and latest.md`);
  return reports.some((r) => r.error) ? 1 : 0;
}
