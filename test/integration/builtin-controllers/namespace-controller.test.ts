import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import { configMaps, eventually } from "./helpers.js";

/** Namespace deletion end to end: Terminating, content deleted, `kubernetes` finalized, namespace gone. */

let cluster: Cluster;
let core: CoreV1Api;

beforeAll(async () => {
  cluster = await startCluster({ backend: "embedded" }); // both controllers, as by default
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

async function namespaceExists(name: string): Promise<boolean> {
  try {
    await core.readNamespace({ name });
    return true;
  } catch (err) {
    if (err instanceof ApiException && err.code === 404) return false;
    throw err;
  }
}

describe("NamespaceController on the embedded cluster", () => {
  it("deletes every object in a Terminating namespace, waits for finalizers, then removes the namespace", async () => {
    await core.createNamespace({ body: { metadata: { name: "doomed" } } });
    const cms = configMaps(cluster, "doomed");
    await cms.create("a");
    await cms.create("b");
    await cms.create("held", [], ["example.com/hold"]);
    await core.createNamespacedSecret({
      namespace: "doomed",
      body: { metadata: { name: "s" }, stringData: { x: "y" } },
    });
    await core.createNamespace({ body: { metadata: { name: "survivor" } } });
    await configMaps(cluster, "survivor").create("keep");

    await core.deleteNamespace({ name: "doomed" });
    const terminating = await core.readNamespace({ name: "doomed" });
    expect(terminating.status?.phase).toBe("Terminating");

    expect(await eventually(async () => !(await cms.exists("a")) && !(await cms.exists("b")))).toBe(true);
    const noSecrets = async () =>
      (await core.listNamespacedSecret({ namespace: "doomed" })).items.length === 0;
    expect(await eventually(noSecrets)).toBe(true);
    // The held ConfigMap waits for its finalizer, and so does the namespace.
    expect((await cms.get("held"))?.metadata?.deletionTimestamp).toBeDefined();
    await new Promise((r) => setTimeout(r, 1_500));
    const stillThere = await core.readNamespace({ name: "doomed" });
    expect(stillThere.spec?.finalizers).toContain("kubernetes");

    await cms.dropFinalizers("held");
    expect(await eventually(async () => !(await namespaceExists("doomed")))).toBe(true);
    expect(await configMaps(cluster, "survivor").exists("keep")).toBe(true);
    expect(await namespaceExists("survivor")).toBe(true);
  }, 30_000);

  it("can be switched off: the namespace then stays Terminating", async () => {
    const bare = await startCluster({
      backend: "embedded",
      embedded: { controllers: { namespace: false, garbageCollector: false } },
    });
    try {
      const api = bare.kubeConfig.makeApiClient(CoreV1Api);
      await api.createNamespace({ body: { metadata: { name: "stuck" } } });
      await api.deleteNamespace({ name: "stuck" });
      await new Promise((r) => setTimeout(r, 1_500));
      const ns = await api.readNamespace({ name: "stuck" });
      expect(ns.status?.phase).toBe("Terminating");
      expect(ns.spec?.finalizers).toContain("kubernetes");
    } finally {
      await bare.stop();
    }
  }, 30_000);
});
