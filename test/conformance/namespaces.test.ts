import { CoreV1Api } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, failure, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
let api: CoreV1Api;
beforeAll(() => {
  api = suite.kubeConfig.makeApiClient(CoreV1Api);
});

describe("namespace lifecycle", () => {
  it("a new namespace is Active with the kubernetes spec finalizer", async () => {
    const name = await suite.namespace("life");
    const ns = await api.readNamespace({ name });
    expect(ns.status?.phase).toBe("Active");
    expect(ns.spec?.finalizers).toEqual(["kubernetes"]);
  });

  it("deleting a namespace makes it Terminating, refuses new content with 403, removes its content, then itself", async () => {
    const name = await suite.namespace("term");
    await api.createNamespacedConfigMap({ namespace: name, body: { metadata: { name: "inside" } } });
    await api.deleteNamespace({ name });
    const terminating = await api.readNamespace({ name }).catch(() => undefined);
    if (terminating) {
      expect(terminating.status?.phase).toBe("Terminating");
      expect(terminating.metadata?.deletionTimestamp).toBeTruthy();
      const { code, status } = await failure(
        api.createNamespacedConfigMap({ namespace: name, body: { metadata: { name: "late" } } }),
      );
      // 403 NamespaceTerminating while it exists; 404 if the controller finished in between.
      expect([403, 404]).toContain(code);
      if (code === 403) expect(status.details?.causes?.[0]?.reason).toBe("NamespaceTerminating");
    }
    await eventually(
      async () => (await failure(api.readNamespace({ name })).catch(() => ({ code: 200 }))).code === 404,
      60_000,
      "the namespace removed by the namespace controller",
    );
  });

  it("default, kube-system and kube-public cannot be deleted", async () => {
    for (const name of ["default", "kube-system", "kube-public"]) {
      // dryRun: admission still refuses, and a cluster that lacked the check would lose nothing.
      const { code } = await failure(api.deleteNamespace({ name, dryRun: "All" }));
      expect(code).toBe(403);
    }
  });
});
