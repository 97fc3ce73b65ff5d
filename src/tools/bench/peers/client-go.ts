/**
 * The client-go peer: a small Go program kept in `src/tools/bench/client-go-peer/` (its own module, client-go pinned in
 * its go.mod) that runs client-go's SharedIndexInformer and workqueue the way the workbook's benchmarks run
 * ours. Like the envtest binaries it is compiled with the Go toolchain on first use into a cache outside the
 * checkout (`~/.cache/kube-controller-workbook/client-go-peer/<source hash>/`), using the shared Go module and
 * build caches, so a second run, or a second checkout of the same source, starts at once.
 *
 * When it cannot run (no Go on PATH, no source next to the build, a failed build), {@link findClientGoPeer}
 * says why in one sentence, and every family prints that sentence in place of the peer's column.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { workbookCacheDir } from "../../../control-plane/cluster/cache-dir.js";

/** A built peer binary and the client-go release it was built with. */
export interface ClientGoPeer {
  binary: string;
  /** e.g. "v0.37.2", read from the module's go.mod. */
  clientGoVersion: string;
}

/** Either a runnable peer, or the reason there is none. */
export type PeerLookup = { peer: ClientGoPeer; missing?: undefined } | { peer?: undefined; missing: string };

/** One JSON line the peer printed; `event` says which. */
export type PeerEvent = { event: string } & Record<string, unknown>;

/** The Go module's folder: `src/tools/bench/client-go-peer`, found from this file under `src/` or `dist/`. */
export function clientGoPeerSource(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
  return join(root, "src", "tools", "bench", "client-go-peer");
}

/** `$WORKBOOK_PEER_CACHE`, else `$XDG_CACHE_HOME/kube-controller-workbook/client-go-peer`, else under `~/.cache`. */
export function clientGoPeerCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WORKBOOK_PEER_CACHE) return env.WORKBOOK_PEER_CACHE;
  return workbookCacheDir("client-go-peer", env);
}

/** Hash of go.mod, go.sum and every .go file: a changed source gets a new binary, never a stale one. */
export function sourceHash(source: string): string {
  const hash = createHash("sha256");
  const files = readdirSync(source)
    .filter((f) => f === "go.mod" || f === "go.sum" || f.endsWith(".go"))
    .sort();
  for (const f of files)
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(source, f)))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** The client-go version required by a go.mod text (undefined when it requires none). */
export function clientGoVersionOf(goMod: string): string | undefined {
  return /^\s*(?:require\s+)?k8s\.io\/client-go\s+(v[\w.-]+)/m.exec(goMod)?.[1];
}

function goBuild(source: string, output: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, CGO_ENABLED: "0", GOFLAGS: `${process.env.GOFLAGS ?? ""} -p=2`.trim() };
    const child = spawn("go", ["build", "-trimpath", "-o", output, "."], { cwd: source, env });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.once("error", (err) => reject(new Error(`could not run go: ${err.message}`)));
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`go build failed (exit ${code}): ${stderr.trim().slice(-600)}`)),
    );
  });
}

/** True when a `go` command answers on PATH. */
function goAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn("go", ["version"], { stdio: "ignore" });
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
  });
}

/**
 * Finds the peer binary for the current source, building it when `build` is true and it is not cached yet
 * (minutes the first time on a cold Go cache, seconds after). Never throws: a missing peer is an answer.
 */
export async function findClientGoPeer(
  options: { build?: boolean; log?: (line: string) => void } = {},
): Promise<PeerLookup> {
  const source = clientGoPeerSource();
  if (!existsSync(join(source, "go.mod")))
    return { missing: `client-go peer: no Go source at ${source} (an installed package ships without it)` };
  const clientGoVersion = clientGoVersionOf(readFileSync(join(source, "go.mod"), "utf8")) ?? "unknown";
  const dir = join(clientGoPeerCacheRoot(), sourceHash(source));
  const binary = join(dir, "client-go-peer");
  if (existsSync(binary)) return { peer: { binary, clientGoVersion } };
  if (!(await goAvailable())) return { missing: "client-go peer: no Go toolchain on PATH (`go` not found)" };
  if (options.build === false)
    return { missing: "client-go peer: not built yet (the full `npm run bench` builds it on first use)" };
  options.log?.(
    `bench: building the client-go ${clientGoVersion} peer into ${dir} (minutes on a cold Go cache)`,
  );
  try {
    await mkdir(dir, { recursive: true });
    const partial = `${binary}.${process.pid}.tmp`;
    await goBuild(source, partial);
    await rename(partial, binary);
  } catch (err) {
    return { missing: `client-go peer: ${(err as Error).message}` };
  }
  return { peer: { binary, clientGoVersion } };
}

/** A running peer command: its events as they arrive, and a promise of all of them once it exits. */
export interface PeerRun {
  /** Resolves with every event when the peer exits 0; rejects with its error line or stderr otherwise. */
  done: Promise<PeerEvent[]>;
  /** Ends the peer early. */
  kill(): void;
}

/**
 * Runs one peer command (`informer ...` or `workqueue ...`) with extra environment (e.g.
 * `KUBE_FEATURE_WatchListClient=false`); `onEvent` sees each JSON line as it is printed.
 */
export function runClientGoPeer(
  peer: ClientGoPeer,
  args: string[],
  options: { env?: Record<string, string>; onEvent?: (e: PeerEvent) => void; timeoutMs?: number } = {},
): PeerRun {
  const child = spawn(peer.binary, args, {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const events: PeerEvent[] = [];
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    if (!line.startsWith("{")) return;
    const event = JSON.parse(line) as PeerEvent;
    events.push(event);
    options.onEvent?.(event);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
  const done = new Promise<PeerEvent[]>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const error = events.find((e) => e.event === "error");
      if (code === 0 && !error) resolve(events);
      else
        reject(
          new Error(
            `client-go peer ${args[0]} failed (${signal ?? `exit ${code}`}): ${error?.message ?? stderr.trim().slice(-600)}`,
          ),
        );
    });
  });
  return { done, kill: () => child.kill("SIGKILL") };
}
