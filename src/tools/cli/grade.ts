/**
 * `workbook grade [--solutions] [--go] [--json [file.json]] [lab-filter]` (npm run grade): grades every lab folder
 * `NN-topic/` of labs/ (or solutions/ with --solutions) with its grader `src/workbook/graders/NN-topic.ts` (built
 * to dist/workbook/graders/NN-topic.js, which is what runs), printing one
 * bullet per requirement with a hint under each failure. Each lab's checks run in a supervised worker process
 * (src/tools/cli/grade-supervisor.ts): an endless loop or a hang fails that one check on its timeout and grading goes
 * on. `--json` writes a report a teacher can collect: to the given `.json` file (the text report still prints),
 * or, with no file, to stdout instead of the text. Exit 0 when every requirement is met (or there are no labs
 * yet), 1 otherwise, 2 for a bad command line. `--labs-dir` and `--graders-dir` point elsewhere (tests use
 * fixture labs). With `WORKBOOK_CLUSTER=kind` the run starts one kind node, within kind's start budget, and every
 * lab's checks share it (src/tools/cli/grade-cluster.ts). `--go` grades the Go track instead: each lab's `go/`
 * folder (a controller-runtime program, labs 05-10), with the same grader and requirements.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { GradeReport } from "../../workbook/grading/check.js";
import { buildGoLab } from "../../workbook/grading/go-build.js";
import { formatReport, formatSummary, gradeRunReport } from "../../workbook/grading/report.js";
import { type GradingRunCluster, startGradingRunCluster } from "./grade-cluster.js";
import { brokenLab, superviseLab } from "./grade-supervisor.js";
import { usageError } from "./usage-error.js";
import { workbookPaths } from "./workbook-paths.js";

/** Parsed arguments of `workbook grade`. */
export interface GradeArgs {
  labsDir: string;
  gradersDir: string;
  filter?: string;
  /** `--json`: `"-"` for stdout, else the file to write. */
  json?: string;
  /** `--go`: grade each lab's Go track (its `go/` folder) instead of the TypeScript files. */
  go?: boolean;
}

/** Parses the command line; unknown flags are a usage error. `--json` takes the next argument if it ends in .json. */
export function parseGradeArgs(args: readonly string[]): GradeArgs {
  const paths = workbookPaths();
  const rest = [...args];
  let json: string | undefined;
  const at = rest.indexOf("--json");
  if (at >= 0) {
    const file = rest[at + 1] ?? "";
    const takesFile = file.endsWith(".json");
    json = takesFile ? resolve(file) : "-";
    rest.splice(at, takesFile ? 2 : 1);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: {
      solutions: { type: "boolean" },
      go: { type: "boolean" },
      "labs-dir": { type: "string" },
      "graders-dir": { type: "string" },
    },
  });
  if (positionals.length > 1)
    throw usageError(`workbook grade: one lab filter at most, got ${positionals.join(" ")}`);
  const parsed: GradeArgs = {
    labsDir: resolve(values["labs-dir"] ?? (values.solutions ? paths.solutions : paths.labs)),
    gradersDir: resolve(values["graders-dir"] ?? paths.graders),
  };
  if (positionals[0] !== undefined) parsed.filter = positionals[0];
  if (json !== undefined) parsed.json = json;
  if (values.go) parsed.go = true;
  return parsed;
}

/** Whether lab folder `lab` of `labsDir` has a Go track: a `go/` folder with a go.mod. */
export function hasGoTrack(labsDir: string, lab: string): boolean {
  return existsSync(join(labsDir, lab, "go", "go.mod"));
}

/** Lab folders (`NN-topic`) directly under `dir`, in order. */
export function listLabs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d{2}-/.test(e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * The grader of `lab` in `gradersDir`: `<lab>.js` (a built grader) or else `<lab>.ts` (a grader in TypeScript, as
 * test fixtures keep them; the worker's module hooks transpile it). Undefined when there is neither.
 */
export function graderFile(gradersDir: string, lab: string): string | undefined {
  return [".js", ".ts"].map((ext) => join(gradersDir, `${lab}${ext}`)).find((file) => existsSync(file));
}

/**
 * Grades one lab folder with its grader, every check supervised (see the module comment). `env` is the
 * environment of its worker processes (default: this process's).
 */
export async function gradeLab(
  lab: string,
  dir: string,
  gradersDir: string,
  env?: NodeJS.ProcessEnv,
  name = lab,
): Promise<GradeReport> {
  const file = graderFile(gradersDir, lab);
  if (!file) {
    const where = join(gradersDir, `${lab}.js`);
    return brokenLab(
      lab,
      "the lab has a grader",
      `no ${where}`,
      "graders live in src/workbook/graders/<lab>.ts",
    );
  }
  return superviseLab(name, file, dir, env ? { env } : {});
}

/**
 * Grades `labs` in order, printing each report through `text`. On kind the run starts one cluster first and
 * shares it (src/tools/cli/grade-cluster.ts); when it cannot start, every lab is reported broken with the
 * cause instead of each worker failing its first check the same slow way.
 */
async function gradeLabs(
  labs: string[],
  parsed: GradeArgs,
  text: (t: string) => void,
): Promise<GradeReport[]> {
  let shared: GradingRunCluster | undefined;
  try {
    shared = await startGradingRunCluster({ log: (line) => text(`  ${line}\n`) });
  } catch (err) {
    const backend = process.env.WORKBOOK_CLUSTER;
    const message = err instanceof Error ? err.message : String(err);
    text(`workbook grade: the ${backend} cluster for this run did not start: ${message}\n`);
    return labs.map((lab) => {
      const report = brokenLab(
        lab,
        `a ${backend} cluster to grade on starts`,
        message,
        "fix what the message names, or grade on another backend (WORKBOOK_CLUSTER=embedded)",
      );
      text(formatReport(report));
      return report;
    });
  }
  const cluster = shared;
  if (cluster) {
    text(
      `workbook grade: one ${cluster.backend} cluster for every lab of this run, ready in ` +
        `${(cluster.startedInMs / 1000).toFixed(1)} s (its own start budget, not a check's)\n`,
    );
  }
  // Ctrl-C or a CI timeout: stop the shared cluster rather than leave a node container behind.
  const onSignal = () => void (cluster?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  if (cluster) for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, onSignal);
  const reports: GradeReport[] = [];
  try {
    for (const lab of labs) {
      const dir = parsed.go ? join(parsed.labsDir, lab, "go") : join(parsed.labsDir, lab);
      const name = parsed.go ? `${lab}/go` : lab;
      const built = parsed.go ? await buildGoTrack(name, dir, text) : undefined;
      const report = built ?? (await gradeLab(lab, dir, parsed.gradersDir, cluster?.env, name));
      text(formatReport(report));
      reports.push(report);
    }
  } finally {
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.off(sig, onSignal);
    await cluster?.stop();
  }
  return reports;
}

/**
 * Builds a lab's Go program before its checks run (a first build compiles controller-runtime: minutes, more
 * than a check may take). Undefined when it built; a report of the compile error when it did not.
 */
async function buildGoTrack(
  name: string,
  dir: string,
  text: (t: string) => void,
): Promise<GradeReport | undefined> {
  try {
    const build = await buildGoLab(dir);
    if (build.compiled)
      text(`workbook grade: built ${name} with go build in ${(build.ms / 1000).toFixed(1)} s\n`);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return brokenLab(name, "the Go program builds", message, "fix what go build printed, then grade again");
  }
}

/** Grades the selected labs and prints their reports; resolves 0 when every requirement is met. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseGradeArgs(args);
  const startedAt = new Date().toISOString();
  const chosen = listLabs(parsed.labsDir).filter((l) => !parsed.filter || l.includes(parsed.filter));
  const text =
    parsed.json === "-" ? (t: string) => process.stderr.write(t) : (t: string) => process.stdout.write(t);
  const labs = parsed.go ? chosen.filter((l) => hasGoTrack(parsed.labsDir, l)) : chosen;
  const noGo = chosen.filter((l) => !labs.includes(l));
  if (noGo.length > 0) {
    text(
      `workbook grade --go: no Go track (a go/ folder) in ${noGo.join(", ")}: labs 01-04 build the machinery ` +
        "itself and stay TypeScript; grade those without --go\n",
    );
    if (labs.length === 0) return 2;
  }
  if (labs.length === 0) {
    text(
      `workbook grade: no labs in ${parsed.labsDir}${parsed.filter ? ` match "${parsed.filter}"` : " yet"}; nothing to grade\n`,
    );
  }
  const reports = labs.length > 0 ? await gradeLabs(labs, parsed, text) : [];
  if (labs.length > 0) text(formatSummary(reports));
  if (parsed.json !== undefined) {
    const report = gradeRunReport(reports, {
      startedAt,
      finishedAt: new Date().toISOString(),
      labsDir: parsed.labsDir,
      cluster: process.env.WORKBOOK_CLUSTER || "embedded",
      user: userInfo().username,
      host: hostname(),
      node: process.version,
    });
    const body = `${JSON.stringify(report, null, 2)}\n`;
    if (parsed.json === "-") process.stdout.write(body);
    else {
      mkdirSync(dirname(parsed.json), { recursive: true });
      writeFileSync(parsed.json, body);
      text(`workbook grade: report written to ${parsed.json}\n`);
    }
  }
  return reports.every((r) => r.failed === 0) ? 0 : 1;
}
