/**
 * The Go toolchain the Go track and the Go-built test programs need: found on PATH or where the official tarball
 * installs it, and new enough for client-go v0.37 and controller-runtime v0.25 (their go.mod says go 1.26).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** The oldest Go minor release that builds client-go v0.37 and controller-runtime v0.25. */
export const MIN_GO_MINOR = 26;

/** The `go` command to use: on PATH, else /usr/local/go/bin; undefined when there is none. */
export function findGo(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/local/go/bin"]) {
    if (dir && existsSync(join(dir, "go"))) return join(dir, "go");
  }
  return undefined;
}

/** Why Go programs cannot be built here (no Go, or a Go older than 1.26), or undefined when they can. */
export async function goUnavailableReason(go = findGo()): Promise<string | undefined> {
  if (!go) return "Go is not installed (no `go` on PATH or in /usr/local/go/bin)";
  try {
    const { stdout } = await exec(go, ["version"], { timeout: 30_000 });
    const minor = /go1\.(\d+)/.exec(stdout)?.[1];
    if (minor === undefined || Number(minor) < MIN_GO_MINOR)
      return `Go 1.${MIN_GO_MINOR} or newer is needed for client-go v0.37 (found ${stdout.trim()})`;
    return undefined;
  } catch (err) {
    return `\`go version\` failed: ${(err as Error).message}`;
  }
}
