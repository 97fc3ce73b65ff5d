/**
 * Builds the Go track of a lab (`labs/NN-topic/go/`): the learner's controller-runtime program, compiled with
 * the Go toolchain before any check runs (a cold build takes minutes, longer than a check). The lab folder and
 * labs/go-kit form a Go workspace (a go.work written next to the binary), so the lab's go.mod needs no `replace`
 * and no go.sum of its own, wherever the folder is. Binaries are cached by a hash of every source file, under
 * `~/.cache/kube-controller-workbook/go-labs/<hash>/`. `workbook grade --go` builds here; the graders run it.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { findGo, goUnavailableReason, MIN_GO_MINOR } from "./go-toolchain.js";

const exec = promisify(execFile);

/** The Go module every Go lab builds with: labkit (the manager a lab runs in) and the workbook's API types. */
export const LABKIT_DIR = fileURLToPath(new URL("../../../labs/go-kit/", import.meta.url));

/** A lab folder is graded on the Go track when it holds a go.mod (`labs/NN-topic/go/`). */
export function isGoTrack(dir: string): boolean {
  return existsSync(join(dir, "go.mod"));
}

/** Checks that a Go new enough is installed, or throws one line saying what to install. */
async function requireGo(): Promise<string> {
  const go = findGo();
  const problem = await goUnavailableReason(go);
  if (!go || problem)
    throw new Error(
      `the Go track needs Go 1.${MIN_GO_MINOR} or newer: ${problem}; install it (https://go.dev/dl/) and put it on PATH, or grade the TypeScript track (without --go)`,
    );
  return go;
}

/** Source files of a Go module folder (recursive), relative and sorted: what the build depends on. */
async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/(\.go|^go\.mod|^go\.sum)$/.test(entry.name)) continue;
    out.push(relative(dir, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

async function buildKey(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const [root, tag] of [
    [dir, "lab"],
    [LABKIT_DIR, "kit"],
  ] as const) {
    for (const name of await sources(root)) {
      hash.update(`${tag}/${name}\0`);
      hash.update(await readFile(join(root, name)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "kube-controller-workbook", "go-labs");
}

/** A built lab program. */
export interface GoLabBuild {
  binary: string;
  /** False when the cache already had this exact source. */
  compiled: boolean;
  /** Wall time of `go build` (0 on a cache hit). */
  ms: number;
}

/**
 * Builds the lab's program (`go build` in the lab folder, in a workspace with labs/go-kit), unless this exact
 * source was built before. A compile error throws with the compiler's output, which the grade report shows.
 */
export async function buildGoLab(dir: string): Promise<GoLabBuild> {
  const out = join(cacheRoot(), await buildKey(dir));
  const binary = join(out, "controller");
  if (existsSync(binary)) return { binary, compiled: false, ms: 0 };
  const go = await requireGo();
  await mkdir(out, { recursive: true });
  const work = join(out, "go.work");
  await writeFile(work, `go 1.${MIN_GO_MINOR}.0\n\nuse (\n\t${dir}\n\t${LABKIT_DIR}\n)\n`);
  const partial = `${binary}.${process.pid}.partial`;
  const started = Date.now();
  try {
    await exec(go, ["build", "-trimpath", "-o", partial, "."], {
      cwd: dir,
      env: { ...process.env, GOWORK: work, CGO_ENABLED: "0" },
      timeout: 20 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    await rm(partial, { force: true });
    const stderr = ((err as { stderr?: string }).stderr ?? "").trim();
    throw new Error(`go build failed in ${dir}:\n${stderr || (err as Error).message}`);
  }
  await rename(partial, binary);
  return { binary, compiled: true, ms: Date.now() - started };
}
