#!/usr/bin/env node
/**
 * `workbook`: the command behind the npm scripts. Each subcommand lives in its own module and is loaded only
 * when used, so `workbook cluster` never imports notebook tooling and vice versa.
 */

/** A subcommand: receives its arguments, resolves to the process exit code. */
export type Command = (args: string[]) => Promise<number>;

/** A subcommand's entry: a one-line summary, its usage line(s), and a lazy loader. */
interface CommandEntry {
  summary: string;
  usage: string;
  load: () => Promise<{ run: Command }>;
}

const commands: Record<string, CommandEntry> = {
  setup: {
    summary: "prepare notebooks: package link, Python env, tslab kernel (npm install runs it)",
    usage: "workbook setup [--force]",
    load: () => import("./setup.js"),
  },
  lab: {
    summary: "open JupyterLab on notebooks/ with the TypeScript kernel (npm start)",
    usage: "workbook lab [jupyter lab options...]",
    load: () => import("./lab.js"),
  },
  cluster: {
    summary: "run the embedded cluster in the foreground for kubectl (npm run cluster)",
    usage: "workbook cluster [--port N] [--host ADDR]",
    load: () => import("./cluster.js"),
  },
  notebooks: {
    summary: "execute every notebook headless under tslab; fail on any error (npm run notebooks)",
    usage: "workbook notebooks [notebook.ipynb ...] [--timeout SECONDS] [--output-dir DIR] [--twice]",
    load: () => import("./notebooks.js"),
  },
  site: {
    summary:
      "execute every notebook, render them, the labs and the questions as a static site (npm run site)",
    usage: "workbook site [--out DIR] [--executed DIR]",
    load: () => import("./site.js"),
  },
  grade: {
    summary: "grade labs/ (or solutions/ with --solutions) per requirement (npm run grade)",
    usage: "workbook grade [--solutions] [--labs-dir DIR] [--graders-dir DIR] [lab-filter]",
    load: () => import("./grade.js"),
  },
  quiz: {
    summary: "the interview question bank in the terminal: quiz, read, list or mock interview (npm run quiz)",
    usage:
      "workbook quiz [--list | --read | --interview N [--seconds S]] [--topic T] [--notebook N] [--difficulty D] [--all] [--reset] [--seed N]",
    load: () => import("./quiz.js"),
  },
  bench: {
    summary:
      "run the benchmark families beside their peers; write bench-results/latest.{json,md} (npm run bench)",
    usage: "workbook bench [family-name-filter] [--tiny] [--out DIR]",
    load: () => import("./bench.js"),
  },
  envtest: {
    summary: "build or locate real kube-apiserver/etcd binaries, or run an envtest control plane",
    usage: "workbook envtest build [--version 1.34.4] [--parallelism 2] [--force] | path | start",
    load: () => import("./envtest.js"),
  },
  kind: {
    summary: "build a kind node image here (no registry needed) or load a local image into a kind node",
    usage:
      "workbook kind build-image [--version 1.34.4] [--parallelism 2] [--force] | load <image> [--node ID]",
    load: () => import("./kind.js"),
  },
  conformance: {
    summary: "run the API scenario suite on every available backend; side-by-side table",
    usage:
      "workbook conformance [--backends embedded,envtest,kind,kubeconfig] [--dir test/conformance] [--out FILE]",
    load: () => import("./conformance.js"),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: workbook <command> [args]\n\ncommands:\n${lines.join("\n")}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`workbook: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${command.summary}\n\nusage: ${command.usage}\n`);
    return 0;
  }
  const mod = await command.load();
  return mod.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Bad arguments are the user's to fix: say what was wrong and how to ask for usage, without a stack trace.
    const code = (err as { code?: unknown } | null)?.code;
    const badArgs = typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
    const message = err instanceof Error ? err.message : String(err);
    const detail = process.env.WORKBOOK_DEBUG && err instanceof Error ? (err.stack ?? message) : message;
    const hint =
      badArgs || /unknown (option|argument)/.test(message)
        ? `\nrun \`workbook ${process.argv[2]} --help\` for usage`
        : "";
    process.stderr.write(`workbook: ${detail}${hint}\n`);
    process.exitCode = badArgs ? 2 : 1;
  },
);
