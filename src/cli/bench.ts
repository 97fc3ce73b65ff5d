import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BenchFigure, Benchmark } from "../bench/types.js";

/** Every benchmark module, loaded lazily. Areas add their module here. */
const suites: Array<() => Promise<{ benchmark: Benchmark }>> = [
  () => import("../bench/workqueue.js"),
  () => import("../bench/controller.js"),
  () => import("../bench/informer.js"),
  () => import("../bench/apiserver.js"),
  () => import("../bench/control-plane.js"),
  () => import("../bench/real-clusters.js"),
];

function row(f: BenchFigure): string {
  const peer = f.peer ? `${f.peer.name}: ${f.peer.value.toFixed(2)} (ratio ${f.peer.ratio.toFixed(2)})` : "";
  const met = f.met === undefined ? "" : f.met ? "yes" : "NO";
  return `| ${f.name} | ${f.value.toFixed(2)} ${f.unit} | ${f.target ?? ""} | ${met} | ${peer} | ${f.notes ?? ""} |`;
}

/** `workbook bench [filter]`: runs the suites (optionally only those whose name contains `filter`). */
export async function run(args: string[]): Promise<number> {
  const filter = args[0];
  const results: Array<{ suite: string; figures: BenchFigure[] }> = [];
  const loaded = await Promise.all(suites.map(async (load) => (await load()).benchmark));
  const chosen = loaded.filter((b) => !filter || b.name.includes(filter));
  if (chosen.length === 0) {
    const names = loaded.map((b) => b.name).join(", ");
    process.stderr.write(`workbook bench: no suite matches "${filter}"; suites: ${names}\n`);
    return 2;
  }
  for (const benchmark of chosen) {
    process.stdout.write(`bench: ${benchmark.name}...\n`);
    const figures = await benchmark.run();
    for (const f of figures) process.stdout.write(`  ${row(f)}\n`);
    results.push({ suite: benchmark.name, figures });
  }
  const dir = "bench-results";
  await mkdir(dir, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().length,
  };
  await writeFile(join(dir, "latest.json"), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
  const md = [`# Benchmarks (${meta.date}, Node ${meta.node}, ${meta.cpus} CPUs)`, ""];
  for (const r of results) {
    md.push(
      `## ${r.suite}`,
      "",
      "| figure | value | target | met | peer | notes |",
      "|---|---|---|---|---|---|",
    );
    for (const f of r.figures) md.push(row(f));
    md.push("");
  }
  await writeFile(join(dir, "latest.md"), md.join("\n"));
  process.stdout.write(`bench: wrote ${join(dir, "latest.json")} and latest.md\n`);
  return 0;
}
