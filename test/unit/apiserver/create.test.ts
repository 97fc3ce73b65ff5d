import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/fake-clock.js";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import { apiError, configMap, setup } from "./helpers.js";

const createBackendWithRandom = (random: () => number) => createBackend({ clock: new FakeClock(), random });

describe("backend create", () => {
  it("generateName appends 5 random [a-z0-9] characters", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", { metadata: { generateName: "job-" } });
    const b = backend.create(cm, "default", { metadata: { generateName: "job-" } });
    expect(a.metadata?.name).toMatch(/^job-[a-z0-9]{5}$/);
    expect(b.metadata?.name).not.toBe(a.metadata?.name);
    const long = backend.create(cm, "default", { metadata: { generateName: `${"p".repeat(80)}-` } });
    expect(long.metadata?.name).toHaveLength(63);
    const bad = apiError(() => backend.create(cm, "default", { metadata: { generateName: "Bad_" } }));
    expect(bad.status.details?.causes?.map((c) => c.field)).toContain("metadata.generateName");
  });

  it("gives up with 409 AlreadyExists when generated names keep colliding", () => {
    const { backend, cm } = setup();
    const stuck = createBackendWithRandom(() => 0);
    const first = stuck.create(cm, "default", { metadata: { generateName: "x-" } });
    expect(first.metadata?.name).toBe("x-bbbbb");
    expect(apiError(() => stuck.create(cm, "default", { metadata: { generateName: "x-" } })).code).toBe(409);
    expect(backend.currentRevision()).toBeGreaterThan(0);
  });

  it("requires a name or generateName (422 Required value)", () => {
    const { backend, cm } = setup();
    const err = apiError(() => backend.create(cm, "default", { metadata: {} }));
    expect(err.code).toBe(422);
    expect(err.status.details?.causes).toEqual([
      {
        reason: "FieldValueRequired",
        field: "metadata.name",
        message: "Required value: name or generateName is required",
      },
    ]);
    expect(err.message).toBe(
      'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    );
  });

  it("validates names: DNS-1123 subdomain for most kinds, DNS-1123 label for namespaces", () => {
    const { backend, cm, ns } = setup();
    const bad = apiError(() => backend.create(cm, "default", configMap("Bad_Name")));
    expect(bad.code).toBe(422);
    expect(bad.status.details?.causes?.[0]?.field).toBe("metadata.name");
    expect(bad.status.details?.causes?.[0]?.message).toContain("RFC 1123 subdomain");
    expect(backend.create(cm, "default", configMap("a.b-c")).metadata?.name).toBe("a.b-c");
    const dotted = apiError(() => backend.create(ns, undefined, { metadata: { name: "a.b" } }));
    expect(dotted.status.details?.causes?.[0]?.message).toContain("RFC 1123 label");
  });

  it("validates labels, annotations, finalizers and ownerReferences", () => {
    const { backend, cm } = setup();
    const causes = (metadata: Record<string, unknown>) =>
      apiError(() => backend.create(cm, "default", { metadata: { name: "x", ...metadata } })).status.details
        ?.causes;
    expect(causes({ labels: { "bad key!": "v" } })?.[0]?.field).toBe("metadata.labels");
    expect(causes({ labels: { ok: "bad value!" } })?.[0]?.field).toBe("metadata.labels");
    expect(causes({ annotations: { big: "x".repeat(300 * 1024) } })?.[0]).toMatchObject({
      field: "metadata.annotations",
      reason: "FieldValueTooLong",
    });
    expect(causes({ finalizers: ["no-slash"] })?.[0]).toMatchObject({
      field: "metadata.finalizers[0]",
      message:
        'Invalid value: "no-slash": name is neither a standard finalizer name nor is it fully qualified',
    });
    const ref = { apiVersion: "v1", kind: "ConfigMap", name: "o", uid: "u1", controller: true };
    expect(causes({ ownerReferences: [{ ...ref, uid: "" }] })?.map((c) => c.field)).toEqual([
      "metadata.ownerReferences.uid",
    ]);
    const two = causes({ ownerReferences: [ref, { ...ref, name: "p", uid: "u2" }] });
    expect(two?.[0]?.message).toContain("Only one reference can have Controller set to true");
    for (const f of ["kubernetes", "orphan", "foregroundDeletion", "example.com/mine"]) {
      expect(
        backend.create(cm, "default", { metadata: { name: `f-${f.length}`, finalizers: [f] } }),
      ).toBeTruthy();
    }
  });

  it("409 AlreadyExists for a duplicate name", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a"));
    const err = apiError(() => backend.create(cm, "default", configMap("a")));
    expect(err.code).toBe(409);
    expect(err.reason).toBe("AlreadyExists");
    expect(err.message).toBe('configmaps "a" already exists');
  });

  it("takes the namespace from the URL and rejects a mismatching body namespace (400)", () => {
    const { backend, cm } = setup();
    const err = apiError(() =>
      backend.create(cm, "default", { metadata: { name: "a", namespace: "kube-system" } }),
    );
    expect(err.code).toBe(400);
    expect(err.message).toBe(
      "the namespace of the provided object does not match the namespace sent on the request",
    );
    expect(
      backend.create(cm, "default", { metadata: { name: "b", namespace: "default" } }).metadata?.namespace,
    ).toBe("default");
  });

  it("needs an existing namespace (404) that is not terminating (403 NamespaceTerminating)", () => {
    const { backend, cm, ns } = setup();
    const missing = apiError(() => backend.create(cm, "nope", configMap("a")));
    expect(missing.code).toBe(404);
    expect(missing.message).toBe('namespaces "nope" not found');
    backend.create(ns, undefined, { metadata: { name: "dying" } });
    backend.delete(ns, undefined, "dying");
    const err = apiError(() => backend.create(cm, "dying", configMap("a")));
    expect(err.code).toBe(403);
    expect(err.message).toBe(
      'configmaps "a" is forbidden: unable to create new content in namespace dying because it is being terminated',
    );
    expect(err.status.details?.causes?.[0]?.reason).toBe("NamespaceTerminating");
  });

  it("ignores the namespace for cluster-scoped kinds", () => {
    const { backend, ns } = setup();
    const created = backend.create(ns, "whatever", { metadata: { name: "team", namespace: "x" } });
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.spec).toEqual({ finalizers: ["kubernetes"] });
    expect(created.status).toEqual({ phase: "Active" });
  });

  it("rejects a body of the wrong kind or apiVersion with 400", () => {
    const { backend, cm } = setup();
    expect(
      apiError(() => backend.create(cm, "default", { kind: "Secret", metadata: { name: "a" } })).code,
    ).toBe(400);
    expect(
      apiError(() => backend.create(cm, "default", { apiVersion: "apps/v1", metadata: { name: "a" } })).code,
    ).toBe(400);
    expect(apiError(() => backend.create(cm, "default", "not an object")).code).toBe(400);
    expect(apiError(() => backend.create(cm, "default", [1, 2])).code).toBe(400);
  });

  it("ignores client-set system fields (uid, resourceVersion, deletionTimestamp, generation)", () => {
    const { backend, deployments } = setup();
    const d = backend.create(deployments, "default", {
      metadata: {
        name: "web",
        uid: "mine",
        resourceVersion: "0",
        deletionTimestamp: "2020-01-01T00:00:00Z",
        generation: 9,
      },
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "c", image: "nginx" }] },
        },
      },
    });
    expect(d.metadata?.uid).not.toBe("mine");
    expect(d.metadata?.deletionTimestamp).toBeUndefined();
    expect(d.metadata?.generation).toBe(1);
    expect((d.spec as { replicas: number }).replicas).toBe(1);
  });

  it("dryRun validates without storing", () => {
    const { backend, cm } = setup();
    const rev = backend.currentRevision();
    backend.create(cm, "default", configMap("a"), { dryRun: true });
    expect(backend.currentRevision()).toBe(rev);
    expect(apiError(() => backend.get(cm, "default", "a")).code).toBe(404);
  });

  it("checks kind-specific types: Secret base64, ConfigMap string data, Lease spec types", () => {
    const { backend, secrets, cm, leases } = setup();
    expect(
      apiError(() => backend.create(secrets, "default", { metadata: { name: "s" }, data: { k: "%%%" } }))
        .code,
    ).toBe(400);
    const s = backend.create(secrets, "default", { metadata: { name: "s" }, stringData: { k: "hi" } });
    expect(s.data).toEqual({ k: Buffer.from("hi").toString("base64") });
    expect(s.stringData).toBeUndefined();
    expect(s.type).toBe("Opaque");
    expect(
      apiError(() => backend.create(cm, "default", { metadata: { name: "c" }, data: { k: 1 } })).code,
    ).toBe(400);
    const badKey = apiError(() =>
      backend.create(cm, "default", { metadata: { name: "c" }, data: { "a b": "1" } }),
    );
    expect(badKey.code).toBe(422);
    expect(badKey.status.details?.causes?.[0]?.field).toBe("data[a b]");
    expect(
      apiError(() =>
        backend.create(leases, "default", { metadata: { name: "l" }, spec: { leaseDurationSeconds: "15" } }),
      ).code,
    ).toBe(400);
    const lease = backend.create(leases, "default", {
      metadata: { name: "l" },
      spec: { holderIdentity: "me", leaseDurationSeconds: 15, renewTime: "2026-01-01T00:00:00.000000Z" },
    });
    expect(lease.spec).toMatchObject({ holderIdentity: "me" });
  });
});
