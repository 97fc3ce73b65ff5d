import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConflict, toStatusError } from "../../../src/apimachinery/errors.js";
import { type Cluster, startCluster } from "../../../src/control-plane/cluster/index.js";
import {
  bucketClient,
  CONFIGSET_LABEL,
  type ConfigSet,
  configSetClient,
  installWorkbookApi,
  uninstallWorkbookApi,
  WORKBOOK_API_VERSION,
  WorkbookResources,
} from "../../../src/workbook/index.js";

let cluster: Cluster;
const namespace = `wbapi-${Date.now().toString(36)}`;

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const status = toStatusError(err);
    if (status) return status;
    throw err;
  }
  throw new Error("expected the call to fail");
}

beforeAll(async () => {
  cluster = await startCluster();
  await cluster.kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: namespace } } });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("the workbook's own API (workbook.dev/v1alpha1)", () => {
  it("installs idempotently: a second install changes nothing", async () => {
    const first = await installWorkbookApi(cluster.kubeConfig);
    expect(first.map((r) => r.name)).toEqual([
      "configsets.workbook.dev",
      "buckets.workbook.dev",
      "staticsites.workbook.dev",
    ]);
    const second = await installWorkbookApi(cluster.kubeConfig);
    expect(second.map((r) => r.action)).toEqual(["unchanged", "unchanged", "unchanged"]);
  }, 60_000);

  it("serves every kind, with the short name cfs and a status subresource", async () => {
    const api = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const list = await api.getAPIResources({ group: "workbook.dev", version: "v1alpha1" });
    const names = list.resources.map((r) => r.name).sort();
    expect(names).toEqual([
      "buckets",
      "buckets/status",
      "configsets",
      "configsets/status",
      "staticsites",
      "staticsites/status",
    ]);
    expect(list.resources.find((r) => r.name === "configsets")?.shortNames).toEqual(["cfs"]);
    const cfs = configSetClient(cluster.kubeConfig);
    const created = await cfs.create({
      metadata: { name: "web", namespace },
      spec: { replicas: 3, data: { color: "blue" } },
    });
    expect(created.apiVersion).toBe(WORKBOOK_API_VERSION);
    expect(created.metadata.generation).toBe(1);
    expect((await cfs.list(namespace)).items.map((c) => c.metadata.name)).toEqual(["web"]);
    const buckets = bucketClient(cluster.kubeConfig);
    const b = await buckets.create({ metadata: { name: "logs", namespace }, spec: { region: "eu-1" } });
    expect(b.kind).toBe("Bucket");
    expect(cfs.watchPath(namespace)).toBe(
      `/apis/workbook.dev/v1alpha1/namespaces/${namespace}/configsets?watch=true`,
    );
    expect(WorkbookResources.configSets.plural).toBe("configsets");
    expect(CONFIGSET_LABEL).toBe("workbook.dev/configset");
  });

  it("rejects replicas: -1, 51, a missing replicas and a Bucket without region with 422", async () => {
    const cfs = configSetClient(cluster.kubeConfig);
    const neg = await failure(cfs.create({ metadata: { name: "neg", namespace }, spec: { replicas: -1 } }));
    expect(neg.code).toBe(422);
    expect(neg.status.details?.causes?.map((c) => c.field)).toContain("spec.replicas");
    const big = await failure(cfs.create({ metadata: { name: "big", namespace }, spec: { replicas: 51 } }));
    expect(big.code).toBe(422);
    const none = await failure(
      cfs.create({ metadata: { name: "none", namespace }, spec: {} as ConfigSet["spec"] }),
    );
    expect(none.code).toBe(422);
    const buckets = bucketClient(cluster.kubeConfig);
    const noRegion = await failure(
      buckets.create({ metadata: { name: "x", namespace }, spec: {} as { region: string } }),
    );
    expect(noRegion.code).toBe(422);
    const badCondition = await failure(
      cfs.create({ metadata: { name: "ok", namespace }, spec: { replicas: 1 } }).then((c) =>
        cfs.updateStatus({
          ...c,
          status: { conditions: [{ type: "Happy" as "Ready", status: "True", reason: "R" }] },
        }),
      ),
    );
    expect(badCondition.code).toBe(422);
  });

  it("status subresource: /status ignores spec, the main endpoint ignores status, stale writes get 409", async () => {
    const cfs = configSetClient(cluster.kubeConfig);
    const c = await cfs.create({ metadata: { name: "st", namespace }, spec: { replicas: 2 } });
    const afterStatus = await cfs.updateStatus({
      ...c,
      spec: { replicas: 9 },
      status: { observedGeneration: 1, replicas: 2, readyReplicas: 2 },
    });
    expect(afterStatus.spec.replicas).toBe(2);
    expect(afterStatus.status?.readyReplicas).toBe(2);
    expect(afterStatus.metadata.generation).toBe(1);
    const afterSpec = await cfs.update({ ...afterStatus, spec: { replicas: 4 }, status: { replicas: 0 } });
    expect(afterSpec.spec.replicas).toBe(4);
    expect(afterSpec.status?.replicas).toBe(2);
    expect(afterSpec.metadata.generation).toBe(2);
    const stale = await failure(cfs.update({ ...c, spec: { replicas: 5 } }));
    expect(isConflict(stale)).toBe(true);
    const patched = await cfs.patch(namespace, "st", { spec: { replicas: 6 } });
    expect(patched.metadata.generation).toBe(3);
    await cfs.delete(namespace, "st");
    expect((await failure(cfs.get(namespace, "st"))).code).toBe(404);
  });

  it("apply: creates, records the field manager, answers 409 on another manager's field unless forced", async () => {
    await installWorkbookApi(cluster.kubeConfig);
    const cfs = configSetClient(cluster.kubeConfig);
    const owners = (cs: ConfigSet) =>
      ((cs.metadata.managedFields ?? []) as { manager: string; operation: string; fieldsV1: object }[]).map(
        (m) => `${m.manager}:${m.operation}:${JSON.stringify(m.fieldsV1)}`,
      );
    const desired = { metadata: { name: "applied", namespace }, spec: { replicas: 2 } };
    const created = await cfs.apply(desired, { fieldManager: "gitops" });
    expect(created.spec.replicas).toBe(2);
    expect(owners(created)).toEqual(['gitops:Apply:{"f:spec":{"f:replicas":{}}}']);
    const again = await cfs.apply(desired, { fieldManager: "gitops" });
    expect(again.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const labelled = await cfs.patch(
      namespace,
      "applied",
      { metadata: { labels: { team: "a" } } },
      { fieldManager: "labeler" },
    );
    expect(owners(labelled)).toContain('labeler:Update:{"f:metadata":{"f:labels":{".":{},"f:team":{}}}}');
    const refused = await failure(
      cfs.apply({ metadata: desired.metadata, spec: { replicas: 3 } }, { fieldManager: "hotfix" }),
    );
    expect(refused.code).toBe(409);
    expect(refused.message).toContain('conflict with "gitops"');
    const forced = await cfs.apply(
      { metadata: desired.metadata, spec: { replicas: 3 } },
      { fieldManager: "hotfix", force: true },
    );
    expect(forced.spec.replicas).toBe(3);
    expect(owners(forced)).toContain('hotfix:Apply:{"f:spec":{"f:replicas":{}}}');
    await cfs.delete(namespace, "applied");
  }, 60_000);

  it("uninstalls (twice is fine): the kinds stop being served, and install works again", async () => {
    await uninstallWorkbookApi(cluster.kubeConfig);
    await uninstallWorkbookApi(cluster.kubeConfig);
    const cfs = configSetClient(cluster.kubeConfig);
    expect((await failure(cfs.list(namespace))).code).toBe(404);
    // Two installers at once (two notebooks on one cluster): one creates each CRD, the other finds it.
    const [one, two] = await Promise.all([
      installWorkbookApi(cluster.kubeConfig),
      installWorkbookApi(cluster.kubeConfig),
    ]);
    for (const [i, r] of one.entries()) {
      expect([r.action, two[i]!.action].sort(), r.name).toEqual(["created", "unchanged"]);
    }
    expect((await cfs.list(namespace)).items).toEqual([]);
    await uninstallWorkbookApi(cluster.kubeConfig);
  }, 120_000);
});
