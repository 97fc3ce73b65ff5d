/**
 * Server-side apply and managedFields: the same scenarios against the embedded server and a real
 * kube-apiserver (WORKBOOK_CLUSTER=envtest). Every write records who owns which field; an apply that would
 * change another manager's field is a 409 naming both the field and the manager.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  crdEstablished,
  eventually,
  isWholeCluster,
  type RawReply,
  raw,
  useSuiteCluster,
} from "./support.js";

const suite = useSuiteCluster();
const APPLY = "application/apply-patch+yaml";
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

type Obj = any;

function apply(path: string, body: unknown, params = ""): Promise<RawReply> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return raw(suite.kubeConfig, "PATCH", `${path}${params}`, text, APPLY);
}

/**
 * The managedFields entries without their times (checked to be RFC 3339 seconds where present: an entry whose
 * write changed nothing, like an apply of values another manager set already, has none). Entries of a whole
 * cluster's own controllers (kube-controller-manager writing a Deployment's status) are left out.
 */
function owners(obj: Obj): Obj[] {
  const entries: Obj[] = obj.metadata?.managedFields ?? [];
  return entries
    .filter((e) => e.manager !== "kube-controller-manager")
    .map((e: Obj) => {
      if (e.time !== undefined) expect(e.time).toMatch(TIME);
      const { time: _, ...rest } = e;
      return rest;
    });
}

const cmPath = (ns: string, name = "") => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;
const cm = (name: string, data: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

describe("managedFields on every write", () => {
  it("a create records an Update entry for the fieldManager, with `.` on maps the write added", async () => {
    const ns = await suite.namespace("mf-create");
    const r = await raw(
      suite.kubeConfig,
      "POST",
      `${cmPath(ns)}?fieldManager=creator`,
      JSON.stringify({ metadata: { name: "c", labels: { app: "x" } }, data: { a: "1" } }),
    );
    expect(r.code).toBe(201);
    expect(owners(r.body)).toEqual([
      {
        manager: "creator",
        operation: "Update",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:data": { ".": {}, "f:a": {} },
          "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
        },
      },
    ]);
  });

  it("without fieldManager the manager comes from the User-Agent, `unknown` when there is none", async () => {
    const ns = await suite.namespace("mf-ua");
    const r = await raw(
      suite.kubeConfig,
      "POST",
      cmPath(ns),
      JSON.stringify({ metadata: { name: "c" }, data: { a: "1" } }),
    );
    expect(owners(r.body).map((e) => e.manager)).toEqual(["unknown"]);
  });

  it("a patch by another manager takes the fields it changes; each keeps the rest", async () => {
    const ns = await suite.namespace("mf-patch");
    await raw(
      suite.kubeConfig,
      "POST",
      `${cmPath(ns)}?fieldManager=creator`,
      JSON.stringify(cm("c", { a: "1", b: "2" })),
    );
    const r = await raw(
      suite.kubeConfig,
      "PATCH",
      `${cmPath(ns, "c")}?fieldManager=patcher`,
      JSON.stringify({ data: { a: "9", c: "3" } }),
      "application/merge-patch+json",
    );
    expect(r.code).toBe(200);
    expect(owners(r.body).map((e) => [e.manager, e.fieldsV1])).toEqual([
      ["creator", { "f:data": { ".": {}, "f:b": {} } }],
      ["patcher", { "f:data": { "f:a": {}, "f:c": {} } }],
    ]);
  });

  it("a status update is recorded with subresource status and owns only status fields", async (ctx) => {
    ctx.skip(
      isWholeCluster(suite.cluster),
      "kube-controller-manager's Deployment controller writes and owns the status",
    );
    const ns = await suite.namespace("mf-status");
    const dep = deployment("d", "nginx");
    const created = await raw(
      suite.kubeConfig,
      "POST",
      `${depPath(ns)}?fieldManager=creator`,
      JSON.stringify(dep),
    );
    expect(created.code).toBe(201);
    const r = await raw(
      suite.kubeConfig,
      "PUT",
      `${depPath(ns, "d")}/status?fieldManager=statuser`,
      JSON.stringify({ ...created.body, status: { replicas: 1, observedGeneration: 1 } }),
    );
    expect(r.code).toBe(200);
    const entries = owners(r.body);
    expect(entries.map((e) => [e.manager, e.subresource])).toEqual([
      ["creator", undefined],
      ["statuser", "status"],
    ]);
    expect(entries[1].fieldsV1).toEqual({ "f:status": { "f:observedGeneration": {}, "f:replicas": {} } });
  });

  it("a Deployment create owns the defaults too, with list items keyed by their merge keys", async () => {
    const ns = await suite.namespace("mf-deploy");
    const r = await raw(
      suite.kubeConfig,
      "POST",
      `${depPath(ns)}?fieldManager=creator`,
      JSON.stringify(deployment("d", "nginx")),
    );
    expect(r.code).toBe(201);
    expect(owners(r.body)[0].fieldsV1).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
      "f:spec": {
        "f:progressDeadlineSeconds": {},
        "f:replicas": {},
        "f:revisionHistoryLimit": {},
        "f:selector": {},
        "f:strategy": {
          "f:rollingUpdate": { ".": {}, "f:maxSurge": {}, "f:maxUnavailable": {} },
          "f:type": {},
        },
        "f:template": {
          "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
          "f:spec": {
            "f:containers": {
              'k:{"name":"app"}': {
                ".": {},
                "f:env": { ".": {}, 'k:{"name":"A"}': { ".": {}, "f:name": {}, "f:value": {} } },
                "f:image": {},
                "f:imagePullPolicy": {},
                "f:name": {},
                "f:ports": {
                  ".": {},
                  'k:{"containerPort":80,"protocol":"TCP"}': {
                    ".": {},
                    "f:containerPort": {},
                    "f:protocol": {},
                  },
                },
                "f:resources": {},
                "f:terminationMessagePath": {},
                "f:terminationMessagePolicy": {},
              },
            },
            "f:dnsPolicy": {},
            "f:restartPolicy": {},
            "f:schedulerName": {},
            "f:securityContext": {},
            "f:terminationGracePeriodSeconds": {},
          },
        },
      },
    });
  });

  it("managedFields sent as an empty list clear them; garbage is ignored and the stored ones kept", async () => {
    const ns = await suite.namespace("mf-reset");
    await raw(
      suite.kubeConfig,
      "POST",
      `${cmPath(ns)}?fieldManager=creator`,
      JSON.stringify(cm("c", { a: "1" })),
    );
    const garbage = await raw(
      suite.kubeConfig,
      "PUT",
      `${cmPath(ns, "c")}?fieldManager=second`,
      JSON.stringify({
        ...cm("c", { a: "2" }),
        metadata: { name: "c", managedFields: [{ manager: "x", operation: "Bogus" }] },
      }),
    );
    expect(garbage.code).toBe(200);
    expect(owners(garbage.body).map((e) => [e.manager, e.fieldsV1])).toEqual([
      ["creator", { "f:data": {} }],
      ["second", { "f:data": { "f:a": {} } }],
    ]);
    const reset = await raw(
      suite.kubeConfig,
      "PUT",
      `${cmPath(ns, "c")}?fieldManager=third`,
      JSON.stringify({ ...cm("c", { a: "3" }), metadata: { name: "c", managedFields: [] } }),
    );
    expect(reset.code).toBe(200);
    expect(reset.body.metadata.managedFields).toBeUndefined();
  });
});

describe("server-side apply", () => {
  it("an apply creates the object (201) and the manager owns exactly the fields it sent", async () => {
    const ns = await suite.namespace("ssa-create");
    const r = await apply(cmPath(ns, "c"), cm("c", { a: "1" }, { l: "1" }), "?fieldManager=m1");
    expect(r.code).toBe(201);
    expect(r.body.data).toEqual({ a: "1" });
    expect(owners(r.body)).toEqual([
      {
        manager: "m1",
        operation: "Apply",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:a": {} }, "f:metadata": { "f:labels": { "f:l": {} } } },
      },
    ]);
  });

  it("an apply body may be YAML", async () => {
    const ns = await suite.namespace("ssa-yaml");
    const yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\ndata:\n  greeting: hello\n";
    const r = await apply(cmPath(ns, "yaml"), yaml, "?fieldManager=yamler");
    expect(r.code).toBe(201);
    expect(r.body.data).toEqual({ greeting: "hello" });
  });

  it("an apply without fieldManager is 422 Invalid PatchOptions; force on another patch type too", async () => {
    const ns = await suite.namespace("ssa-options");
    const r = await apply(cmPath(ns, "c"), cm("c", { a: "1" }));
    expect(r.code).toBe(422);
    expect(r.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    await apply(cmPath(ns, "c"), cm("c", { a: "1" }), "?fieldManager=m1");
    const forced = await raw(
      suite.kubeConfig,
      "PATCH",
      `${cmPath(ns, "c")}?fieldManager=m1&force=true`,
      JSON.stringify({ data: { z: "1" } }),
      "application/merge-patch+json",
    );
    expect(forced.code).toBe(422);
    expect(forced.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });

  it("a configuration of another version or kind, or another name, is 400", async () => {
    const ns = await suite.namespace("ssa-bad");
    const version = await apply(cmPath(ns, "c"), { ...cm("c", {}), apiVersion: "v2" }, "?fieldManager=m1");
    expect([version.code, version.body.message]).toEqual([400, "invalid object type: /v2, Kind=ConfigMap"]);
    const kind = await apply(cmPath(ns, "c"), { ...cm("c", {}), kind: "Secret" }, "?fieldManager=m1");
    expect([kind.code, kind.body.message]).toEqual([400, "invalid object type: /v1, Kind=Secret"]);
    const name = await apply(cmPath(ns, "c"), cm("other", {}), "?fieldManager=m1");
    expect([name.code, name.body.message]).toEqual([
      400,
      "the name of the object (other) does not match the name on the URL (c)",
    ]);
  });

  it("a second manager changing an owned field gets 409 naming the field and the owner", async () => {
    const ns = await suite.namespace("ssa-conflict");
    await apply(cmPath(ns, "c"), cm("c", { a: "1", b: "2" }), "?fieldManager=m1");
    const one = await apply(cmPath(ns, "c"), cm("c", { a: "2" }), "?fieldManager=m2");
    expect(one.code).toBe(409);
    expect(one.body).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Conflict",
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "m1": .data.a',
      details: {
        causes: [{ reason: "FieldManagerConflict", message: 'conflict with "m1"', field: ".data.a" }],
      },
    });
    const two = await apply(cmPath(ns, "c"), cm("c", { a: "2", b: "3" }), "?fieldManager=m2");
    expect(two.code).toBe(409);
    expect(two.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "m1":\n- .data.a\n- .data.b',
    );
    expect(two.body.details.causes.map((c: Obj) => c.field)).toEqual([".data.a", ".data.b"]);
  });

  it("a conflict with an Update owner names its apiVersion; the same value is no conflict but shared", async () => {
    const ns = await suite.namespace("ssa-update-owner");
    await raw(
      suite.kubeConfig,
      "POST",
      `${cmPath(ns)}?fieldManager=editor`,
      JSON.stringify(cm("c", { a: "1" })),
    );
    const r = await apply(cmPath(ns, "c"), cm("c", { a: "5" }), "?fieldManager=m2");
    expect(r.code).toBe(409);
    expect(r.body.message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .data.a');
    const same = await apply(cmPath(ns, "c"), cm("c", { a: "1" }), "?fieldManager=m2");
    expect(same.code).toBe(200);
    expect(owners(same.body).map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ["m2", "Apply", { "f:data": { "f:a": {} } }],
      ["editor", "Update", { "f:data": { ".": {}, "f:a": {} } }],
    ]);
  });

  it("force=true takes the field: the other manager loses it", async () => {
    const ns = await suite.namespace("ssa-force");
    await apply(cmPath(ns, "c"), cm("c", { a: "1", b: "2" }), "?fieldManager=m1");
    const r = await apply(cmPath(ns, "c"), cm("c", { a: "2" }), "?fieldManager=m2&force=true");
    expect(r.code).toBe(200);
    expect(r.body.data).toEqual({ a: "2", b: "2" });
    expect(owners(r.body).map((e) => [e.manager, e.fieldsV1])).toEqual([
      ["m1", { "f:data": { "f:b": {} } }],
      ["m2", { "f:data": { "f:a": {} } }],
    ]);
  });

  it("a field the manager stops applying is removed, unless another manager owns it too", async () => {
    const ns = await suite.namespace("ssa-remove");
    await apply(cmPath(ns, "c"), cm("c", { a: "1", b: "2", c: "3" }, { l: "1" }), "?fieldManager=m1");
    await apply(cmPath(ns, "c"), cm("c", { c: "3" }), "?fieldManager=m2");
    const r = await apply(cmPath(ns, "c"), cm("c", { a: "1" }), "?fieldManager=m1");
    expect(r.code).toBe(200);
    expect(r.body.data).toEqual({ a: "1", c: "3" });
    expect(r.body.metadata.labels).toBeUndefined();
  });

  it("list-type maps merge by key: two managers own their own containers; a shared one conflicts", async () => {
    const ns = await suite.namespace("ssa-lists");
    const created = await apply(depPath(ns, "d"), deployment("d", "nginx"), "?fieldManager=app");
    expect(created.code).toBe(201);
    const sidecar = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: { template: { spec: { containers: [{ name: "sidecar", image: "busybox" }] } } },
    };
    const r = await apply(depPath(ns, "d"), sidecar, "?fieldManager=side");
    expect(r.code).toBe(200);
    expect(r.body.spec.template.spec.containers.map((c: Obj) => [c.name, c.image])).toEqual([
      ["app", "nginx"],
      ["sidecar", "busybox"],
    ]);
    expect(owners(r.body).map((e) => e.manager)).toEqual(["app", "side"]);
    expect(owners(r.body)[1].fieldsV1).toEqual({
      "f:spec": {
        "f:template": {
          "f:spec": { "f:containers": { 'k:{"name":"sidecar"}': { ".": {}, "f:image": {}, "f:name": {} } } },
        },
      },
    });
    expect(owners(r.body)[0].fieldsV1["f:spec"]["f:template"]["f:spec"]["f:containers"]).toEqual({
      'k:{"name":"app"}': {
        ".": {},
        "f:env": { 'k:{"name":"A"}': { ".": {}, "f:name": {}, "f:value": {} } },
        "f:image": {},
        "f:name": {},
        "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } },
      },
    });
    const clash = await apply(
      depPath(ns, "d"),
      {
        ...sidecar,
        spec: {
          replicas: 3,
          template: {
            spec: {
              containers: [
                { name: "app", image: "busybox" },
                { name: "sidecar", image: "busybox" },
              ],
            },
          },
        },
      },
      "?fieldManager=side",
    );
    expect(clash.code).toBe(409);
    expect(clash.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "app":\n- .spec.replicas\n- .spec.template.spec.containers[name="app"].image',
    );
  });
});

describe("server-side apply to the status subresource", () => {
  it("a status apply owns status fields under subresource status; the main resource cannot take them", async (ctx) => {
    ctx.skip(
      isWholeCluster(suite.cluster),
      "kube-controller-manager's Deployment controller writes and owns the status",
    );
    const ns = await suite.namespace("ssa-status");
    const { spec } = deployment("d", "nginx");
    const owner = await apply(
      depPath(ns, "d"),
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec },
      "?fieldManager=owner",
    );
    expect(owner.code).toBe(201);
    const status = (s: Obj) => ({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      status: s,
    });
    const r = await apply(
      `${depPath(ns, "d")}/status`,
      status({ replicas: 1, conditions: [{ type: "Available", status: "True" }] }),
      "?fieldManager=ctrl",
    );
    expect(r.code).toBe(200);
    expect(r.body.status.replicas).toBe(1);
    // Entries sort by operation, then time (whole seconds), then manager: "owner" applied first, so it comes
    // before "ctrl" unless both writes fell in the same second. Find the entry by name.
    expect(owners(r.body).find((e) => e.manager === "ctrl")).toEqual({
      manager: "ctrl",
      operation: "Apply",
      apiVersion: "apps/v1",
      fieldsType: "FieldsV1",
      fieldsV1: {
        "f:status": {
          "f:conditions": { 'k:{"type":"Available"}': { ".": {}, "f:status": {}, "f:type": {} } },
          "f:replicas": {},
        },
      },
      subresource: "status",
    });
    const clash = await apply(`${depPath(ns, "d")}/status`, status({ replicas: 2 }), "?fieldManager=other");
    expect([clash.code, clash.body.message]).toEqual([
      409,
      'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status": .status.replicas',
    ]);
    // The main resource resets status: an apply there neither changes nor owns it.
    const main = await apply(depPath(ns, "d"), { ...status({ replicas: 5 }), spec }, "?fieldManager=owner");
    expect(main.code).toBe(200);
    expect(main.body.status.replicas).toBe(1);
    expect(owners(main.body).find((e) => e.manager === "owner")?.fieldsV1["f:status"]).toBeUndefined();
    const missing = await apply(
      `${depPath(ns, "missing")}/status`,
      { ...status({ replicas: 1 }), metadata: { name: "missing" } },
      "?fieldManager=ctrl",
    );
    expect(missing.code).toBe(404);
  });
});

describe("server-side apply on a custom resource", () => {
  const group = `a${randomBytes(3).toString("hex")}.apply.workbook.example.com`;
  const crdName = `gadgets.${group}`;
  let crds: ApiextensionsV1Api;

  beforeAll(async () => {
    crds = suite.kubeConfig.makeApiClient(ApiextensionsV1Api);
    // Sent raw: client-node's typed serializer would drop the x-kubernetes-* extensions.
    const created = await raw(
      suite.kubeConfig,
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      JSON.stringify({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: crdName },
        spec: {
          group,
          scope: "Namespaced",
          names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
          versions: [
            {
              name: "v1",
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: "object",
                  properties: {
                    spec: {
                      type: "object",
                      properties: {
                        size: { type: "integer" },
                        parts: {
                          type: "array",
                          "x-kubernetes-list-type": "map",
                          "x-kubernetes-list-map-keys": ["name"],
                          items: {
                            type: "object",
                            required: ["name"],
                            properties: { name: { type: "string" }, count: { type: "integer" } },
                          },
                        },
                        tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
                      },
                    },
                  },
                },
              },
            },
          ],
        },
      }),
    );
    expect(created.code).toBe(201);
    await crdEstablished(crds, crdName);
  });

  afterAll(async () => {
    await crds?.deleteCustomResourceDefinition({ name: crdName }).catch(() => undefined);
  });

  it("items of an x-kubernetes-list-map-keys list and a set list belong to the manager that applied them", async () => {
    const ns = await suite.namespace("ssa-cr");
    const path = `/apis/${group}/v1/namespaces/${ns}/gadgets/g`;
    const gadget = (spec: Obj) => ({
      apiVersion: `${group}/v1`,
      kind: "Gadget",
      metadata: { name: "g" },
      spec,
    });
    let first: RawReply | undefined;
    await eventually(
      async () => {
        first = await apply(
          path,
          gadget({ size: 1, parts: [{ name: "wheel", count: 4 }], tags: ["a"] }),
          "?fieldManager=one",
        );
        return first.code === 201;
      },
      20_000,
      "custom resource served",
    );
    expect(owners(first!.body)[0].fieldsV1).toEqual({
      "f:spec": {
        "f:parts": { 'k:{"name":"wheel"}': { ".": {}, "f:count": {}, "f:name": {} } },
        "f:size": {},
        "f:tags": { 'v:"a"': {} },
      },
    });
    const second = await apply(
      path,
      gadget({ parts: [{ name: "bell", count: 1 }], tags: ["b"] }),
      "?fieldManager=two",
    );
    expect(second.code).toBe(200);
    expect(second.body.spec).toEqual({
      size: 1,
      parts: [
        { name: "wheel", count: 4 },
        { name: "bell", count: 1 },
      ],
      tags: ["a", "b"],
    });
    const clash = await apply(path, gadget({ parts: [{ name: "wheel", count: 5 }] }), "?fieldManager=two");
    expect(clash.code).toBe(409);
    expect(clash.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "one": .spec.parts[name="wheel"].count',
    );
    const dropped = await apply(path, gadget({ size: 1 }), "?fieldManager=one");
    expect(dropped.code).toBe(200);
    expect(dropped.body.spec).toEqual({ size: 1, parts: [{ name: "bell", count: 1 }], tags: ["b"] });
  });
});

describe("kubectl apply --server-side", () => {
  const run = promisify(execFile);
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "workbook-ssa-"));
    writeFileSync(join(dir, "kubeconfig"), suite.kubeConfig.exportConfig());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function kubectl(
    args: string[],
    input?: string,
  ): Promise<{ code: number; out: string; err: string }> {
    const file = join(dir, `in-${randomBytes(3).toString("hex")}.yaml`);
    if (input !== undefined) writeFileSync(file, input);
    try {
      const r = await run("kubectl", [
        "--kubeconfig",
        join(dir, "kubeconfig"),
        ...args,
        ...(input ? ["-f", file] : []),
      ]);
      return { code: 0, out: r.stdout, err: r.stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === "number" ? e.code : 1, out: e.stdout ?? "", err: e.stderr ?? "" };
    }
  }

  it("applies, reports a conflict with another field manager, and takes over with --force-conflicts", async () => {
    const ns = await suite.namespace("ssa-kubectl");
    const manifest = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k\n  namespace: ${ns}\ndata:\n  key: ${value}\n`;
    const first = await kubectl(["apply", "--server-side"], manifest("one"));
    expect(first.err).toBe("");
    expect(first.out.trim()).toBe("configmap/k serverside-applied");
    const clash = await kubectl(["apply", "--server-side", "--field-manager=other"], manifest("two"));
    expect(clash.code).not.toBe(0);
    expect(clash.err).toContain('conflict with "kubectl": .data.key');
    const forced = await kubectl(
      ["apply", "--server-side", "--field-manager=other", "--force-conflicts"],
      manifest("two"),
    );
    expect(forced.out.trim()).toBe("configmap/k serverside-applied");
    const got = await kubectl(["get", "configmap", "k", "-n", ns, "-o", "json", "--show-managed-fields"]);
    const obj = JSON.parse(got.out);
    expect(obj.data).toEqual({ key: "two" });
    expect(obj.metadata.managedFields.map((e: Obj) => e.manager)).toEqual(["other"]);
  });
});

const depPath = (ns: string, name = "") =>
  `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ""}`;

/** A Deployment with one container (a port and an env var: two more list-type maps). */
function deployment(name: string, image: string): Obj {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: "app", image, ports: [{ containerPort: 80 }], env: [{ name: "A", value: "1" }] },
          ],
        },
      },
    },
  };
}
