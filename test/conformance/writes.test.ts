import { CoordinationV1Api, CoreV1Api, type V1ConfigMap } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import { collect, eventually, failure, jsonPatch, mergePatch, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
let api: CoreV1Api;
beforeAll(() => {
  api = suite.kubeConfig.makeApiClient(CoreV1Api);
});
const ns = (prefix: string) => suite.namespace(prefix);
const HOLD = "workbook.example.com/hold";

function cm(name: string, extra: Partial<NonNullable<V1ConfigMap["metadata"]>> = {}): V1ConfigMap {
  return { metadata: { name, ...extra }, data: { k: "v" } };
}

describe("409 conflicts", () => {
  it("an update with a stale resourceVersion fails with 409 Conflict and the Status names the resource", async () => {
    const namespace = await ns("conflict");
    const v1 = await api.createNamespacedConfigMap({ namespace, body: cm("web") });
    await api.replaceNamespacedConfigMap({ name: "web", namespace, body: { ...v1, data: { k: "v2" } } });
    const { code, status } = await failure(
      api.replaceNamespacedConfigMap({ name: "web", namespace, body: { ...v1, data: { k: "stale" } } }),
    );
    expect(code).toBe(409);
    expect(status).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Conflict",
      code: 409,
      details: { name: "web", kind: "configmaps" },
    });
    expect(status.message).toBe(
      'Operation cannot be fulfilled on configmaps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    const current = await api.readNamespacedConfigMap({ name: "web", namespace });
    expect(current.data).toEqual({ k: "v2" });
  });

  it("a Lease update without a resourceVersion is refused with 422 (no unconditional update); a merge patch is not", async () => {
    const namespace = await ns("lease-update");
    const leases = suite.kubeConfig.makeApiClient(CoordinationV1Api);
    const lease = await leases.createNamespacedLease({
      namespace,
      body: { metadata: { name: "l" }, spec: { holderIdentity: "a", leaseDurationSeconds: 10 } },
    });
    const { code, status } = await failure(
      leases.replaceNamespacedLease({
        name: "l",
        namespace,
        body: { metadata: { name: "l" }, spec: { ...lease.spec, holderIdentity: "b" } },
      }),
    );
    expect(code).toBe(422);
    expect(status).toMatchObject({ reason: "Invalid", details: { name: "l" } });
    expect(status.message).toContain("metadata.resourceVersion");
    const patched = await leases.patchNamespacedLease(
      { name: "l", namespace, body: { spec: { holderIdentity: "c" } } },
      mergePatch,
    );
    expect(patched.spec?.holderIdentity).toBe("c");
  });

  it("creating an existing name fails with 409 AlreadyExists", async () => {
    const namespace = await ns("exists");
    await api.createNamespacedConfigMap({ namespace, body: cm("dup") });
    const { code, status } = await failure(api.createNamespacedConfigMap({ namespace, body: cm("dup") }));
    expect(code).toBe(409);
    expect(status).toMatchObject({ reason: "AlreadyExists", details: { name: "dup", kind: "configmaps" } });
  });

  it("a delete precondition on a stale resourceVersion fails with 409", async () => {
    const namespace = await ns("precond");
    const v1 = await api.createNamespacedConfigMap({ namespace, body: cm("p") });
    await api.patchNamespacedConfigMap({ name: "p", namespace, body: { data: { k: "2" } } }, mergePatch);
    const { code } = await failure(
      api.deleteNamespacedConfigMap({
        name: "p",
        namespace,
        body: { preconditions: { resourceVersion: v1.metadata?.resourceVersion ?? "" } },
      }),
    );
    expect(code).toBe(409);
    expect((await api.readNamespacedConfigMap({ name: "p", namespace })).data).toEqual({ k: "2" });
  });
});

describe("finalizers and deletionTimestamp", () => {
  it("a finalizer keeps a deleted object, marked with deletionTimestamp, until the finalizer is removed", async () => {
    const namespace = await ns("fin");
    await api.createNamespacedConfigMap({ namespace, body: cm("held", { finalizers: [HOLD] }) });
    await api.deleteNamespacedConfigMap({ name: "held", namespace });
    const marked = await api.readNamespacedConfigMap({ name: "held", namespace });
    expect(marked.metadata?.deletionTimestamp).toBeTruthy();
    expect(marked.metadata?.finalizers).toEqual([HOLD]);

    // No new finalizers once deletion started.
    const { code } = await failure(
      api.patchNamespacedConfigMap(
        { name: "held", namespace, body: { metadata: { finalizers: [HOLD, "workbook.example.com/more"] } } },
        mergePatch,
      ),
    );
    expect(code).toBe(422);

    // A second delete is accepted and changes nothing.
    await api.deleteNamespacedConfigMap({ name: "held", namespace });
    expect((await api.readNamespacedConfigMap({ name: "held", namespace })).metadata?.finalizers).toEqual([
      HOLD,
    ]);

    await api.patchNamespacedConfigMap(
      { name: "held", namespace, body: [{ op: "remove", path: "/metadata/finalizers" }] },
      jsonPatch,
    );
    const { code: gone } = await failure(api.readNamespacedConfigMap({ name: "held", namespace }));
    expect(gone).toBe(404);
  });

  it("an object without finalizers is removed by DELETE at once", async () => {
    const namespace = await ns("nofin");
    const created = await api.createNamespacedConfigMap({ namespace, body: cm("plain") });
    const status = await api.deleteNamespacedConfigMap({ name: "plain", namespace });
    // A built-in's immediate DELETE answers with a Status naming what went.
    expect(status).toMatchObject({
      kind: "Status",
      status: "Success",
      details: { name: "plain", kind: "configmaps" },
    });
    expect(status.details?.uid).toBe(created.metadata?.uid);
    expect((await failure(api.readNamespacedConfigMap({ name: "plain", namespace }))).code).toBe(404);
  });
});

describe("propagation policies", () => {
  // Watched rather than read back: on a real cluster the garbage collector may already have removed the
  // policy finalizer (the owner has no dependents) by the time a GET would run.
  async function finalizersSeenAfterDelete(policy: "Foreground" | "Orphan"): Promise<string[]> {
    const namespace = await ns(policy.toLowerCase());
    const created = await api.createNamespacedConfigMap({
      namespace,
      body: cm("owner", { finalizers: [HOLD] }),
    });
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: created.metadata?.resourceVersion ?? "",
    });
    try {
      await api.deleteNamespacedConfigMap({ name: "owner", namespace, propagationPolicy: policy });
      await eventually(() => w.events.length >= 1, 10_000, "the MODIFIED event of the delete");
      const ev = w.events[0];
      expect(ev?.type).toBe("MODIFIED");
      expect(ev?.object.metadata.deletionTimestamp).toBeTruthy();
      return ev?.object.metadata.finalizers ?? [];
    } finally {
      w.stop();
      // Let the object go, so the namespace can be deleted on a real cluster too.
      await api
        .patchNamespacedConfigMap(
          { name: "owner", namespace, body: { metadata: { finalizers: null } } },
          mergePatch,
        )
        .catch(() => undefined);
    }
  }

  it("Foreground adds the foregroundDeletion finalizer and sets deletionTimestamp", async () => {
    expect(await finalizersSeenAfterDelete("Foreground")).toEqual(
      expect.arrayContaining([HOLD, "foregroundDeletion"]),
    );
  });

  it("Orphan adds the orphan finalizer and sets deletionTimestamp", async () => {
    expect(await finalizersSeenAfterDelete("Orphan")).toEqual(expect.arrayContaining([HOLD, "orphan"]));
  });

  it("Background deletes the owner at once", async () => {
    const namespace = await ns("bg");
    await api.createNamespacedConfigMap({ namespace, body: cm("owner") });
    await api.deleteNamespacedConfigMap({ name: "owner", namespace, propagationPolicy: "Background" });
    expect((await failure(api.readNamespacedConfigMap({ name: "owner", namespace }))).code).toBe(404);
  });

  // The rest needs a garbage collector: kube-controller-manager's on a real cluster, the workbook's own on
  // the embedded backend.
  async function ownerAndChild(namespace: string, blockOwnerDeletion = false) {
    const owner = await api.createNamespacedConfigMap({ namespace, body: cm("owner") });
    const ownerRef = {
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "owner",
      uid: owner.metadata?.uid ?? "",
      ...(blockOwnerDeletion ? { blockOwnerDeletion: true } : {}),
    };
    const child = await api.createNamespacedConfigMap({
      namespace,
      body: cm("child", { ownerReferences: [ownerRef] }),
    });
    return { owner, child };
  }
  const gone = async (namespace: string, name: string) =>
    (await failure(api.readNamespacedConfigMap({ name, namespace })).catch(() => ({ code: 200 }))).code ===
    404;

  it("Background: the garbage collector deletes dependents after the owner is gone", async () => {
    const namespace = await ns("gcbg");
    await ownerAndChild(namespace);
    await api.deleteNamespacedConfigMap({ name: "owner", namespace, propagationPolicy: "Background" });
    await eventually(() => gone(namespace, "child"), 30_000, "the dependent deleted");
  });

  it("Foreground: a blocking dependent is deleted before its owner", async () => {
    const namespace = await ns("gcfg");
    const { owner } = await ownerAndChild(namespace, true);
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: owner.metadata?.resourceVersion ?? "",
    });
    try {
      await api.deleteNamespacedConfigMap({ name: "owner", namespace, propagationPolicy: "Foreground" });
      await eventually(() => gone(namespace, "owner"), 30_000, "the owner deleted");
      await eventually(
        () => w.events.filter((e) => e.type === "DELETED").length >= 2,
        10_000,
        "both DELETED events",
      );
      const deletions = w.events.filter((e) => e.type === "DELETED").map((e) => e.object.metadata.name);
      expect(deletions).toEqual(["child", "owner"]);
    } finally {
      w.stop();
    }
  });

  it("Orphan: dependents lose their ownerReference and survive", async () => {
    const namespace = await ns("gcorphan");
    await ownerAndChild(namespace);
    await api.deleteNamespacedConfigMap({ name: "owner", namespace, propagationPolicy: "Orphan" });
    await eventually(() => gone(namespace, "owner"), 30_000, "the owner deleted");
    const child = await api.readNamespacedConfigMap({ name: "child", namespace });
    expect(child.metadata?.ownerReferences ?? []).toEqual([]);
  });
});

describe("validation errors", () => {
  it("an invalid name fails with 422 Invalid and a cause naming metadata.name", async () => {
    const namespace = await ns("invalid");
    const { code, status } = await failure(
      api.createNamespacedConfigMap({ namespace, body: cm("Not_A_Name") }),
    );
    expect(code).toBe(422);
    expect(status).toMatchObject({
      kind: "Status",
      reason: "Invalid",
      details: { name: "Not_A_Name", kind: "ConfigMap" },
    });
    expect(status.details?.causes?.map((c) => c.field)).toContain("metadata.name");
    expect(status.details?.causes?.[0]?.reason).toBe("FieldValueInvalid");
  });

  it("a missing name fails with 422 and a FieldValueRequired cause", async () => {
    const namespace = await ns("noname");
    const { code, status } = await failure(api.createNamespacedConfigMap({ namespace, body: { data: {} } }));
    expect(code).toBe(422);
    expect(status.details?.causes).toContainEqual(
      expect.objectContaining({ field: "metadata.name", reason: "FieldValueRequired" }),
    );
  });

  it("an unqualified finalizer name fails with 422", async () => {
    const namespace = await ns("badfin");
    const { code, status } = await failure(
      api.createNamespacedConfigMap({ namespace, body: cm("f", { finalizers: ["unqualified"] }) }),
    );
    expect(code).toBe(422);
    expect(status.details?.causes?.[0]?.field).toMatch(/^metadata\.finalizers/);
  });

  it("two controller ownerReferences fail with 422", async () => {
    const namespace = await ns("owners");
    const ref = (name: string, uid: string) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      name,
      uid,
      controller: true,
    });
    const { code } = await failure(
      api.createNamespacedConfigMap({
        namespace,
        body: cm("child", {
          ownerReferences: [
            ref("a", "11111111-1111-1111-1111-111111111111"),
            ref("b", "22222222-2222-2222-2222-222222222222"),
          ],
        }),
      }),
    );
    expect(code).toBe(422);
  });
});
