import { describe, expect, it } from "vitest";
import { finalizersForDeletion } from "../../../src/control-plane/apiserver/registry/deletion-policy.js";
import { apiError, configMap, recorder, setup } from "./helpers.js";

describe("GC finalizers for a DELETE (precedence orphanDependents > propagationPolicy > existing > default)", () => {
  it("computes the policy finalizers", () => {
    expect(finalizersForDeletion([], { propagationPolicy: "Foreground" })).toEqual(["foregroundDeletion"]);
    expect(finalizersForDeletion([], { propagationPolicy: "Orphan" })).toEqual(["orphan"]);
    expect(finalizersForDeletion(["orphan", "a/b"], { propagationPolicy: "Background" })).toEqual(["a/b"]);
    expect(finalizersForDeletion(["foregroundDeletion"], { propagationPolicy: "Orphan" })).toEqual([
      "orphan",
    ]);
    expect(finalizersForDeletion([], { orphanDependents: true, propagationPolicy: "Foreground" })).toEqual([
      "orphan",
    ]);
    expect(finalizersForDeletion(["orphan"], { orphanDependents: false })).toEqual([]);
    expect(finalizersForDeletion(["orphan"], {})).toEqual(["orphan"]);
    expect(finalizersForDeletion(["foregroundDeletion"], undefined)).toEqual(["foregroundDeletion"]);
    expect(finalizersForDeletion(["x/y"], {})).toEqual(["x/y"]);
  });
});

describe("backend delete", () => {
  it("checks uid and resourceVersion preconditions (409)", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", configMap("a"));
    const uid = apiError(() => backend.delete(cm, "default", "a", { preconditions: { uid: "other" } }));
    expect(uid.code).toBe(409);
    expect(uid.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (other) does not match the UID in record (${a.metadata?.uid}). The object might have been deleted and then recreated`,
    );
    expect(uid.status.details).toEqual({ name: "a", kind: "ConfigMap" });
    const rv = apiError(() =>
      backend.delete(cm, "default", "a", { preconditions: { resourceVersion: "1" } }),
    );
    expect(rv.code).toBe(409);
    expect(rv.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${a.metadata?.resourceVersion}). The object might have been modified`,
    );
    backend.delete(cm, "default", "a", {
      preconditions: { uid: a.metadata!.uid!, resourceVersion: a.metadata!.resourceVersion! },
    });
    expect(apiError(() => backend.delete(cm, "default", "a")).code).toBe(404);
  });

  it("keeps objects with finalizers, sets deletionTimestamp once and bumps generation", async () => {
    const { backend, deployments, clock } = setup();
    backend.create(deployments, "default", {
      metadata: { name: "web", finalizers: ["example.com/hold"] },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
      },
    });
    const d = backend.delete(deployments, "default", "web");
    expect(d.metadata?.deletionTimestamp).toBe("2026-01-01T00:00:00Z");
    expect(d.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect(d.metadata?.generation).toBe(2);
    await clock.advance(10_000);
    const again = backend.delete(deployments, "default", "web");
    expect(again.metadata?.deletionTimestamp).toBe("2026-01-01T00:00:00Z");
    expect(again.metadata?.resourceVersion).toBe(d.metadata?.resourceVersion);
    expect(backend.get(deployments, "default", "web").metadata?.generation).toBe(2);
  });

  it("Foreground and Orphan add their finalizers and keep the object; Background deletes at once", () => {
    const { backend, cm } = setup();
    for (const n of ["fg", "or", "bg"]) backend.create(cm, "default", configMap(n));
    expect(
      backend.delete(cm, "default", "fg", { propagationPolicy: "Foreground" }).metadata?.finalizers,
    ).toEqual(["foregroundDeletion"]);
    expect(backend.delete(cm, "default", "or", { propagationPolicy: "Orphan" }).metadata?.finalizers).toEqual(
      ["orphan"],
    );
    backend.delete(cm, "default", "bg", { propagationPolicy: "Background" });
    expect(backend.list(cm, "default", {}).items.map((i) => i.metadata?.name)).toEqual(["fg", "or"]);
    // policy finalizers cannot change once deletion is pending
    expect(
      backend.delete(cm, "default", "or", { propagationPolicy: "Background" }).metadata?.finalizers,
    ).toEqual(["orphan"]);
    expect(
      apiError(() => backend.delete(cm, "default", "or", { propagationPolicy: "Sideways" as "Orphan" })).code,
    ).toBe(422);
  });

  it("pods are deleted immediately (no kubelet, so no graceful wait)", () => {
    const { backend, pods } = setup();
    backend.create(pods, "default", {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    const gone = backend.delete(pods, "default", "p", { gracePeriodSeconds: 30 });
    expect(gone.metadata?.name).toBe("p");
    expect(apiError(() => backend.get(pods, "default", "p")).code).toBe(404);
    expect(apiError(() => backend.create(pods, "default", { metadata: { name: "q" }, spec: {} })).code).toBe(
      422,
    );
  });

  it("deletecollection deletes what the selectors match", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a", {}, { app: "x" }));
    backend.create(cm, "default", configMap("b", {}, { app: "x" }));
    backend.create(cm, "default", configMap("c", {}, { app: "y" }));
    const res = backend.deleteCollection(cm, "default", { labelSelector: "app=x" });
    expect(res.items.map((i) => i.metadata?.name)).toEqual(["a", "b"]);
    expect(backend.list(cm, "default", {}).items.map((i) => i.metadata?.name)).toEqual(["c"]);
  });

  it("dryRun=All changes nothing", () => {
    const { backend, cm } = setup();
    backend.create(cm, "default", configMap("a"));
    backend.delete(cm, "default", "a", { dryRun: ["All"] });
    expect(backend.get(cm, "default", "a").metadata?.name).toBe("a");
  });
});

describe("namespace lifecycle", () => {
  it("DELETE marks Terminating; repeated DELETE is 409; /finalize empties spec.finalizers and removes it", () => {
    const { backend, ns } = setup();
    backend.create(ns, undefined, { metadata: { name: "team" } });
    const sink = recorder();
    backend.watch(
      ns,
      undefined,
      { resourceVersion: String(backend.currentRevision()), fieldSelector: "metadata.name=team" },
      sink,
    );
    const t = backend.delete(ns, undefined, "team");
    expect(t.status).toEqual({ phase: "Terminating" });
    expect(t.metadata?.deletionTimestamp).toBeDefined();
    const again = apiError(() => backend.delete(ns, undefined, "team"));
    expect(again.code).toBe(409);
    expect(again.message).toBe(
      'Operation cannot be fulfilled on namespaces "team": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
    );
    backend.update(ns, undefined, "team", { ...t, spec: { finalizers: [] } }, { subresource: "finalize" });
    expect(apiError(() => backend.get(ns, undefined, "team")).code).toBe(404);
    expect(sink.events.map((e) => e.type)).toEqual(["MODIFIED", "DELETED"]);
  });

  it("a namespace with metadata finalizers stays until they are removed too", () => {
    const { backend, ns } = setup();
    backend.create(ns, undefined, { metadata: { name: "team", finalizers: ["example.com/x"] } });
    const t = backend.delete(ns, undefined, "team");
    const f = backend.update(
      ns,
      undefined,
      "team",
      { ...t, spec: { finalizers: [] } },
      { subresource: "finalize" },
    );
    expect(f.metadata?.finalizers).toEqual(["example.com/x"]);
    backend.delete(ns, undefined, "team");
    expect(backend.get(ns, undefined, "team").metadata?.name).toBe("team");
    backend.patch(ns, undefined, "team", "application/merge-patch+json", { metadata: { finalizers: null } });
    expect(apiError(() => backend.get(ns, undefined, "team")).code).toBe(404);
  });

  it("default, kube-system and kube-public cannot be deleted (403)", () => {
    const { backend, ns } = setup();
    for (const name of ["default", "kube-system", "kube-public"]) {
      const err = apiError(() => backend.delete(ns, undefined, name));
      expect(err.code).toBe(403);
      expect(err.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });
});
