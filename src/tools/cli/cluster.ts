/**
 * `workbook cluster` (`npm run cluster`): runs the embedded cluster in the foreground so kubectl and other
 * tools can use it. Prints `export KUBECONFIG=...`, waits for SIGINT or SIGTERM, then stops the server
 * (closing watches and connections, removing the kubeconfig) and exits 0.
 *
 * Options: `--port <n>` to pick the port (default: random), `--host <addr>` to bind elsewhere than 127.0.0.1
 * (only when you mean to expose it).
 */
import { startEmbeddedCluster } from "../../control-plane/cluster/embedded.js";

function parseArgs(args: string[]): { port?: number; host?: string } {
  const out: { port?: number; host?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = args[i + 1];
    if (a === "--port" && value !== undefined) {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${value}`);
      out.port = port;
      i++;
    } else if (a === "--host" && value !== undefined) {
      out.host = value;
      i++;
    } else {
      throw new Error(`unknown argument ${a} (usage: workbook cluster [--port N] [--host ADDR])`);
    }
  }
  return out;
}

/** Waits for the first of SIGINT/SIGTERM. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(sig);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

/** Runs the embedded cluster until interrupted. */
export async function run(args: string[]): Promise<number> {
  let opts: { port?: number; host?: string };
  try {
    opts = parseArgs(args);
  } catch (err) {
    process.stderr.write(`workbook cluster: ${(err as Error).message}\n`);
    return 2;
  }
  const cluster = await startEmbeddedCluster({ embedded: { ...opts } });
  process.stdout.write(`export KUBECONFIG=${cluster.kubeconfigPath}\n`);
  process.stdout.write(
    `# embedded API server at ${cluster.server.url}; paste the line above in another shell, then try \`kubectl get ns\`. Ctrl-C stops it.\n`,
  );
  const sig = await untilSignal();
  process.stderr.write(`workbook cluster: ${sig}, stopping\n`);
  await cluster.stop();
  return 0;
}
