/**
 * Builds and vets the Go module of the notebooks' "The same in Go" sections (unmodified client-go v0.37 and
 * controller-runtime v0.25, the versions test/real-clients pins) into a cache outside the repository,
 * `~/.cache/kube-controller-workbook/go-snippets/<hash>/`, keyed by a hash of every file of the module: compiled
 * once per change, shared by every checkout and CI run, with Go's own module and build caches underneath.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { findGo, realClientsCacheRoot } from "../real-clients/build.js";

const exec = promisify(execFile);

/** The Go module: one folder per notebook program, plus internal/controllers and glossary (API types: labkit). */
export const GO_SNIPPETS_SOURCE = dirname(fileURLToPath(import.meta.url));

/** Every .go file of the module, relative to it, sorted. */
export async function goFiles(dir = GO_SNIPPETS_SOURCE): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".go")) {
      out.push(relative(dir, join(entry.parentPath, entry.name)));
    }
  }
  return out.sort();
}

/** labs/go-kit: the module's go.mod replaces labkit (the workbook's API types) with this folder. */
const LABKIT_SOURCE = join(GO_SNIPPETS_SOURCE, "..", "..", "labs", "go-kit");

async function moduleHash(): Promise<string> {
  const hash = createHash("sha256");
  for (const [root, tag] of [
    [GO_SNIPPETS_SOURCE, "snippets"],
    [LABKIT_SOURCE, "labkit"],
  ] as const) {
    for (const name of [...(await goFiles(root)), "go.mod", "go.sum"]) {
      hash.update(`${tag}/${name}\0`);
      hash.update(await readFile(join(root, name)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/** What a build reports: where the binaries are, and whether this call compiled (false: a cache hit). */
export interface GoSnippetsBuild {
  /** Folder holding one binary per main package, named after its folder (`01-watch`, `10-operator`...). */
  binDir: string;
  compiled: boolean;
  /** Wall time of `go build` plus `go vet`, in ms (0 on a cache hit). */
  ms: number;
}

async function go(goBin: string, args: string[]): Promise<void> {
  try {
    await exec(goBin, args, {
      cwd: GO_SNIPPETS_SOURCE,
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-p=2" },
      timeout: 30 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? "";
    throw new Error(`go ${args.join(" ")} in test/go-snippets failed:\n${stderr || (err as Error).message}`);
  }
}

/**
 * `go build ./...` (binaries into the cache) and `go vet ./...`, unless this version of the module already
 * passed both here. A failure throws with the compiler's or vet's output.
 */
export async function buildGoSnippets(goBin = findGo() ?? "go"): Promise<GoSnippetsBuild> {
  const dir = join(dirname(realClientsCacheRoot()), "go-snippets", await moduleHash());
  const binDir = join(dir, "bin");
  const done = join(dir, "built-and-vetted");
  if (existsSync(done)) return { binDir, compiled: false, ms: 0 };
  const started = Date.now();
  const partial = `${binDir}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await go(goBin, ["build", "-trimpath", "-mod=readonly", "-o", `${partial}/`, "./..."]);
    await go(goBin, ["vet", "-mod=readonly", "./..."]);
    await rm(binDir, { recursive: true, force: true });
    await rename(partial, binDir);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  await writeFile(done, `${new Date().toISOString()}\n`);
  return { binDir, compiled: true, ms: Date.now() - started };
}
