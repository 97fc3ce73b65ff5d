#!/usr/bin/env node
/**
 * `workbook`: the command behind the npm scripts. Each subcommand lives in its own module and is loaded only
 * when used, so `workbook cluster` never imports notebook tooling and vice versa.
 */

/** A subcommand: receives its arguments, resolves to the process exit code. */
export type Command = (args: string[]) => Promise<number>;

const commands: Record<string, { summary: string; load: () => Promise<{ run: Command }> }> = {
  setup: {
    summary: "prepare notebooks: package link, Python env, tslab kernel (npm install runs it)",
    load: () => import("./setup.js"),
  },
  lab: {
    summary: "open JupyterLab on notebooks/ with the TypeScript kernel (npm start)",
    load: () => import("./lab.js"),
  },
  cluster: {
    summary: "run the embedded cluster in the foreground for kubectl (npm run cluster)",
    load: () => import("./cluster.js"),
  },
  notebooks: {
    summary: "execute every notebook headless under tslab; fail on any error (npm run notebooks)",
    load: () => import("./notebooks.js"),
  },
  grade: {
    summary: "grade labs/ (or solutions/ with --solutions) per requirement (npm run grade)",
    load: () => import("./grade.js"),
  },
  bench: {
    summary: "run the benchmarks and write figures to bench-results/ (npm run bench)",
    load: () => import("./bench.js"),
  },
  envtest: {
    summary: "build or locate real kube-apiserver/etcd binaries, or run an envtest control plane",
    load: () => import("./envtest.js"),
  },
  conformance: {
    summary: "run the API scenario suite on every available backend; side-by-side table",
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
  const mod = await command.load();
  return mod.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`workbook: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
