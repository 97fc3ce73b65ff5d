import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  findEnvtestAssets,
  requireEnvtestAssets,
} from "../../../src/control-plane/cluster/envtest/assets.js";
import {
  envtestCacheRoot,
  envtestVersionDir,
  normalizeVersion,
  stagingVersion,
} from "../../../src/control-plane/cluster/envtest/version.js";

let root: string;

function fakeBinary(dir: string, name: string, executable = true): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, executable ? 0o755 : 0o644);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "assets-test-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("finding envtest binaries", () => {
  it("prefers KUBEBUILDER_ASSETS over the build cache and reports optional binaries", () => {
    const assetsDir = join(root, "assets");
    fakeBinary(assetsDir, "kube-apiserver");
    fakeBinary(assetsDir, "etcd");
    fakeBinary(assetsDir, "kube-controller-manager");
    const cacheBin = join(envtestVersionDir("1.34.4", join(root, "cache")), "bin");
    fakeBinary(cacheBin, "kube-apiserver");
    fakeBinary(cacheBin, "etcd");
    const found = findEnvtestAssets({
      env: { KUBEBUILDER_ASSETS: assetsDir },
      cacheRoot: join(root, "cache"),
      systemEtcd: [],
    });
    expect(found).toMatchObject({
      dir: assetsDir,
      kubeApiserver: join(assetsDir, "kube-apiserver"),
      etcd: join(assetsDir, "etcd"),
      kubeControllerManager: join(assetsDir, "kube-controller-manager"),
    });
    const fromCache = findEnvtestAssets({ env: {}, cacheRoot: join(root, "cache"), systemEtcd: [] });
    expect(fromCache?.dir).toBe(cacheBin);
    expect(fromCache?.kubeControllerManager).toBeUndefined();
  });

  it("falls back to a system etcd, and skips folders without etcd or with non-executable files", () => {
    const dir = join(root, "only-apiserver");
    fakeBinary(dir, "kube-apiserver");
    const systemEtcd = fakeBinary(join(root, "usr-bin"), "etcd");
    expect(findEnvtestAssets({ dir, env: {}, cacheRoot: root, systemEtcd: [systemEtcd] })?.etcd).toBe(
      systemEtcd,
    );
    expect(findEnvtestAssets({ dir, env: {}, cacheRoot: root, systemEtcd: [] })).toBeUndefined();
    const notExec = join(root, "not-exec");
    fakeBinary(notExec, "kube-apiserver", false);
    fakeBinary(notExec, "etcd");
    expect(findEnvtestAssets({ dir: notExec, env: {}, cacheRoot: root, systemEtcd: [] })).toBeUndefined();
  });

  it("explains where it looked and what to do when nothing is found", () => {
    const missing = join(root, "missing");
    expect(() => requireEnvtestAssets({ dir: missing, env: {}, cacheRoot: root, systemEtcd: [] })).toThrow(
      new RegExp(`Looked in:[\\s\\S]*${missing}[\\s\\S]*workbook envtest build[\\s\\S]*embedded`),
    );
  });
});

describe("envtest versions and cache folder", () => {
  it("normalizes versions and maps them to staging module versions", () => {
    expect(normalizeVersion("v1.34.4")).toBe("1.34.4");
    expect(stagingVersion("1.33.13")).toBe("v0.33.13");
    expect(() => normalizeVersion("1.34")).toThrow(/Invalid Kubernetes version/);
    expect(() => normalizeVersion("../../etc")).toThrow(/Invalid Kubernetes version/);
  });

  it("keeps the cache outside the repository, overridable by environment", () => {
    expect(envtestCacheRoot({ WORKBOOK_ENVTEST_CACHE: "/c" })).toBe("/c");
    expect(envtestCacheRoot({ XDG_CACHE_HOME: "/x" })).toBe("/x/kube-controller-workbook/envtest");
    expect(envtestVersionDir("v1.34.4", "/c")).toBe("/c/1.34.4");
  });
});
