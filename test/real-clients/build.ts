/**
 * Builds the real-client Go program (./go: unmodified client-go and controller-runtime) into a cache outside the
 * repository, `~/.cache/kube-controller-workbook/real-clients/<hash>/real-clients`, keyed by a hash of its sources,
 * so it is compiled once per change and shared by every checkout and CI run (like the envtest binaries). The Go
 * module and build caches are Go's defaults (`GOMODCACHE`, `GOCACHE`), shared with `workbook envtest build`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { findGo, goUnavailableReason } from "../../src/workbook/grading/go-toolchain.js";

const exec = promisify(execFile);

export { findGo, goUnavailableReason };

/** The Go module of the program. */
export const REAL_CLIENTS_SOURCE = join(dirname(fileURLToPath(import.meta.url)), "go");

/** Where the program is built: `$XDG_CACHE_HOME` or `~/.cache`, then `kube-controller-workbook/real-clients`. */
export function realClientsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "kube-controller-workbook", "real-clients");
}

/** A hash of every file of the module: the cache key. */
export async function sourceHash(dir = REAL_CLIENTS_SOURCE): Promise<string> {
  const hash = createHash("sha256");
  const names = (await readdir(dir)).filter((n) => n.endsWith(".go") || n === "go.mod" || n === "go.sum");
  for (const name of names.sort()) {
    hash.update(`${name}\0`);
    hash.update(await readFile(join(dir, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The program's binary, built first if this version of the sources was never built here. The first build
 * compiles client-go and controller-runtime (minutes on two busy cores); later ones are a cache hit.
 */
export async function buildRealClients(go = findGo() ?? "go"): Promise<string> {
  const dir = join(realClientsCacheRoot(), await sourceHash());
  const binary = join(dir, "real-clients");
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  const partial = `${binary}.${process.pid}.partial`;
  try {
    await exec(go, ["build", "-trimpath", "-mod=readonly", "-o", partial, "."], {
      cwd: REAL_CLIENTS_SOURCE,
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-p=2" },
      timeout: 30 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    await rename(partial, binary);
  } catch (err) {
    await rm(partial, { force: true });
    const stderr = (err as { stderr?: string }).stderr ?? "";
    throw new Error(`go build of the real-client program failed: ${(err as Error).message}\n${stderr}`);
  }
  return binary;
}
