import { access, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EmbeddedCluster } from "../../../src/control-plane/cluster/embedded.js";
import { type KubeconfigCluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { run as runClusterCli } from "../../../src/tools/cli/cluster.js";
import { until } from "./helpers.js";

describe("cluster backends", () => {
  let cluster: EmbeddedCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  it("the embedded backend comes with instruments, a working kubeConfig and a stop() that removes its files", async () => {
    // Controllers off: their own LIST/WATCH requests would show in the counts.
    cluster = (await startCluster({
      backend: "embedded",
      embedded: { controllers: { garbageCollector: false, namespace: false } },
    })) as EmbeddedCluster;
    expect(cluster.backend).toBe("embedded");
    expect(cluster.instruments.metrics).toBeDefined();
    const api = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const names = (await api.listNamespace()).items.map((n) => n.metadata?.name);
    expect(names).toContain("default");
    expect(cluster.instruments.metrics.count({ verb: "list", resource: "namespaces" })).toBe(1);
    const path = cluster.kubeconfigPath;
    await access(path);
    await Promise.all([cluster.stop(), cluster.stop()]);
    await expect(access(path)).rejects.toThrow();
  });

  it("the kubeconfig backend uses a kubeconfig's current context and deletes only the namespaces it created", async () => {
    cluster = (await startCluster({ backend: "embedded" })) as EmbeddedCluster;
    const path = join(tmpdir(), `workbook-kc-${process.pid}-${Date.now()}.json`);
    await writeFile(path, cluster.kubeConfig.exportConfig());
    const remote = (await startCluster({ backend: "kubeconfig", kubeconfig: { path } })) as KubeconfigCluster;
    expect(remote.backend).toBe("kubeconfig");
    expect(remote.instruments).toBeUndefined();
    await remote.createNamespace("kc-owned");
    const api = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await api.createNamespace({ body: { metadata: { name: "kc-foreign" } } });
    await remote.stop();
    const phase = async (name: string) => (await api.readNamespace({ name })).status?.phase;
    // Deleting a namespace marks it Terminating (no namespace controller may be running to finish it).
    expect(await phase("kc-owned").catch(() => "Gone")).toMatch(/Terminating|Gone/);
    expect(await phase("kc-foreign")).toBe("Active");
    await rm(path, { force: true });
  });
});

describe("workbook cluster", () => {
  it("prints export KUBECONFIG=..., serves until SIGINT, then stops cleanly with exit code 0", async () => {
    let out = "";
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const errSpy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const exit = runClusterCli([]);
      await until(() => out.includes("export KUBECONFIG="), 10_000);
      const path = /export KUBECONFIG=(\S+)/.exec(out)?.[1] ?? "";
      await access(path);
      process.emit("SIGINT");
      expect(await exit).toBe(0);
      await expect(access(path)).rejects.toThrow();
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
    }
  });

  it("rejects unknown arguments with exit code 2", async () => {
    const errSpy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await runClusterCli(["--bogus"])).toBe(2);
      expect(await runClusterCli(["--port", "99999"])).toBe(2);
    } finally {
      errSpy.mockRestore();
    }
  });
});
