import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEnvtestCluster } from "../../../src/control-plane/cluster/envtest.js";

let root: string;
let assets: string;
let scratch: string;

function script(name: string, body: string): void {
  const path = join(assets, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "envtest-fail-"));
  assets = join(root, "assets");
  scratch = join(root, "tmp");
  mkdirSync(assets);
  mkdirSync(scratch);
  vi.stubEnv("TMPDIR", scratch);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

describe("envtest start-up failure", () => {
  it("reports the dying process with its log, stops the others and removes its folder", async () => {
    script("etcd", `echo $$ > "${root}/etcd.pid"\nexec sleep 60`);
    script("kube-apiserver", 'echo "E1202 flag provided but not defined: -bogus" >&2\nexit 3');
    const error = await startEnvtestCluster({ envtest: { assetsDir: assets, startTimeoutMs: 20_000 } }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("kube-apiserver exited during start-up");
    expect((error as Error).message).toContain("flag provided but not defined: -bogus");
    const etcdPid = Number(readFileSync(join(root, "etcd.pid"), "utf8"));
    expect(alive(etcdPid)).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);
  }, 30_000);

  it("fails with the lookup error before creating anything when the binaries are missing", async () => {
    await expect(startEnvtestCluster({ envtest: { assetsDir: join(root, "nowhere") } })).rejects.toThrow(
      /needs kube-apiserver and etcd binaries/,
    );
    expect(readdirSync(scratch)).toEqual([]);
  });
});
